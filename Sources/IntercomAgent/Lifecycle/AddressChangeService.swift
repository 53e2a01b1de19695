import IntercomPlatform
import Logging
import ServiceLifecycle
import Synchronization

/// Watches the host's addresses (`NetlinkAddressMonitor`, rtnetlink) and tells the call coordinator when they
/// changed, so calls restart ICE on today's addresses instead of dying with the old one (issue #20). Changes
/// come in bursts (the old address removed, the new one added, IPv6 alongside): one notice per `settle`.
/// `onChange` hooks hear the same notice (SIP re-registers from the new address).
public final class AddressChangeService: Service {
    static let settle: Duration = .milliseconds(250)
    private let coordinator: CallCoordinator
    private let onChange: [@Sendable (String) async -> Void]
    private let logger: Logger

    public init(coordinator: CallCoordinator, logger: Logger, onChange: [@Sendable (String) async -> Void] = []) {
        self.coordinator = coordinator
        self.onChange = onChange
        self.logger = logger
    }

    public func run() async throws {
        let monitor: NetlinkAddressMonitor
        do {
            monitor = try NetlinkAddressMonitor()
        } catch {
            // Calls still work; they just do not survive an address change.
            logger.warning("cannot watch the host's addresses; a call will not survive an address change",
                           metadata: ["error": "\(error)"])
            return
        }
        let pending = Mutex<[NetlinkAddressEvent]?>(nil)
        // One wake-up however many changes came meanwhile: the loop takes them all.
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        monitor.start { events in
            pending.withLock { $0 = ($0 ?? []) + events }
            wake.yield()
        }
        await cancelWhenGracefulShutdown {
            for await _ in wakeups {
                try? await Task.sleep(for: Self.settle)  // the rest of the burst
                guard let batch = pending.withLock({ events -> [NetlinkAddressEvent]? in
                    defer { events = nil }
                    return events
                }) else { continue }
                let reason = Self.describe(batch)
                self.logger.info("host addresses changed: \(reason)")
                // The hooks first: SIP only posts to its thread, while the coordinator returns once the
                // notice was handled, which waits behind whatever the call machine is doing.
                for hook in self.onChange { await hook(reason) }
                await self.coordinator.addressesChanged(reason)
            }
        }
        monitor.stop()
        wake.finish()
    }

    static func describe(_ events: [NetlinkAddressEvent]) -> String {
        events.isEmpty ? "the kernel dropped address messages"
            : events.map { "\($0.change == .added ? "+" : "-")\($0.addressText)" }.joined(separator: " ")
    }
}
