import IntercomPlatform
import Logging
import ServiceLifecycle

/// Speaks the systemd notify protocol for the agent: `READY=1` once the readiness gate opens, `WATCHDOG=1`
/// at half the watchdog interval from the agent's own task loop (so a starved or hung agent stops pinging and
/// gets restarted), `STATUS=` lines, and `STOPPING=1` when graceful shutdown begins.
public struct SystemdNotifyService: Service {
    let notifier: SystemdNotifier
    let readiness: ReadinessGate
    let status: @Sendable () async -> String
    let logger: Logger

    public init(notifier: SystemdNotifier, readiness: ReadinessGate, logger: Logger, status: @escaping @Sendable () async -> String) {
        self.notifier = notifier
        self.readiness = readiness
        self.status = status
        self.logger = logger
    }

    public func run() async throws {
        do {
            try await notifyUntilShutdown()
        } catch is CancellationError {
            // Shutdown cancels the watchdog sleep: that is the normal end of this service, not a failure.
        }
    }

    private func notifyUntilShutdown() async throws {
        let notifier = self.notifier
        let logger = self.logger
        try await withGracefulShutdownHandler {
            try await cancelWhenGracefulShutdown {
                await readiness.waitUntilReady()
                try Task.checkCancellation()
                var lastStatus = await status()
                Self.send(logger) { () throws(SystemCallError) in try notifier.ready(status: lastStatus) }
                logger.info("ready: \(lastStatus)")
                let interval = notifier.recommendedWatchdogPing ?? .seconds(10)
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    let current = await status()
                    let changed = current != lastStatus
                    lastStatus = current
                    Self.send(logger) { () throws(SystemCallError) in
                        if notifier.watchdogInterval != nil { try notifier.watchdog() }
                        if changed { try notifier.status(current) }
                    }
                }
            }
        } onGracefulShutdown: {
            Self.send(logger) { () throws(SystemCallError) in try notifier.stopping(status: "stopping") }
        }
    }

    /// A failed notification is logged, never fatal: the agent works without systemd too.
    private static func send(_ logger: Logger, _ body: () throws(SystemCallError) -> Void) {
        do {
            try body()
        } catch {
            logger.warning("systemd notification failed: \(error)")
        }
    }
}
