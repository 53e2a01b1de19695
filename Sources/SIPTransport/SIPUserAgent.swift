import Glibc
import IntercomPlatform
import Logging
import Synchronization

/// A SIP user agent on a thread of its own ("sip"): a UDP socket on the configured port (and a TCP connection
/// to the registrar when the transport is TCP), the sans-IO transactions and registration of SIPCore driven
/// with a real monotonic clock, NAT keepalives, and OPTIONS answered. `start` and `stop` only post to an
/// inbox and wake the thread, so no caller ever waits for the network.
public final class SIPUserAgent: Sendable {
    enum Command: Sendable {
        case start
        case stop
    }

    struct Inbox {
        var commands: [Command] = []
        var finished: CheckedContinuation<Void, Never>?
        var done = false
        var started = false
    }

    let inbox = Mutex(Inbox())
    /// Polled by the SIP thread with its sockets; `start`, `stop` and the inbox wake it.
    let wakeup = WakeupPipe()
    let settings: SIPUserAgentSettings
    let logger: Logger
    let onState: @Sendable (SIPRegistrationState) -> Void
    /// The bound UDP port, once the thread opened it (0 before).
    private let boundPort = Atomic<Int>(0)

    /// `onState` runs on the SIP thread: it must hand work off, not do it.
    public init(settings: SIPUserAgentSettings, logger: Logger, onState: @escaping @Sendable (SIPRegistrationState) -> Void) {
        self.settings = settings
        self.logger = logger
        self.onState = onState
    }

    /// The UDP port requests reach us on; 0 until the thread has bound it.
    public var localPort: Int { boundPort.load(ordering: .acquiring) }

    public func start() {
        let first = inbox.withLock { inbox in
            defer { inbox.started = true }
            return !inbox.started
        }
        guard first else { return }
        NamedThread.start("sip") { [self] in
            SIPUserAgentLoop(agent: self).run()
            let finished = inbox.withLock { inbox in
                inbox.done = true
                return inbox.finished
            }
            finished?.resume()
        }
        submit(.start)
    }

    /// Unregisters (Expires: 0, at most 2 s) and waits for the thread to end.
    public func stop() async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            let alreadyDone = inbox.withLock { inbox in
                if inbox.done || !inbox.started { return true }
                inbox.finished = finished
                inbox.commands.append(.stop)
                return false
            }
            if alreadyDone { finished.resume() } else { wake() }
        }
    }

    func bound(port: Int) { boundPort.store(port, ordering: .releasing) }

    func takeCommands() -> [Command] {
        inbox.withLock { inbox in
            defer { inbox.commands = [] }
            return inbox.commands
        }
    }

    private func submit(_ command: Command) {
        inbox.withLock { $0.commands.append(command) }
        wake()
    }

    private func wake() { wakeup.wake() }
}
