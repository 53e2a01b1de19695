import Glibc
import IntercomPlatform
import Logging
import SIPCore
import Synchronization

/// A SIP user agent on a thread of its own ("sip"): a UDP socket on the configured port (and a TCP connection
/// to the registrar when the transport is TCP), the sans-IO transactions and registration of SIPCore driven
/// with a real monotonic clock, NAT keepalives, OPTIONS answered, and incoming calls (`onCall` events; `ring`,
/// `answer`, `refuse`, `hangup`). Every command only posts to an inbox and wakes the thread, so no caller ever
/// waits for the network.
public final class SIPUserAgent: Sendable {
    enum Command: Sendable {
        case start
        case stop
        case ring(callID: String)
        case answer(callID: String, sdp: String)
        case refuse(callID: String, status: Int, reason: String)
        case hangup(callID: String)
        case invite(callID: String, target: SIPURI, offer: String)
        case addressesChanged
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
    let onCall: @Sendable (SIPCallEvent) -> Void
    /// Which local address the kernel sends from toward the registrar; tests move the device by replacing it.
    let localAddressToward: @Sendable (SIPSocketAddress) throws(SIPTransportError) -> SIPSocketAddress
    /// The bound UDP port, once the thread opened it (0 before).
    private let boundPort = Atomic<Int>(0)
    private let boundStreamPort = Atomic<Int>(0)
    /// What happened to connections accepted on the TCP listener (written by the SIP thread).
    let streamCounters = Mutex(SIPStreamCounters())

    /// `onState` and `onCall` run on the SIP thread: they must hand work off, not do it.
    public convenience init(settings: SIPUserAgentSettings, logger: Logger,
                onState: @escaping @Sendable (SIPRegistrationState) -> Void,
                onCall: @escaping @Sendable (SIPCallEvent) -> Void = { _ in }) {
        self.init(settings: settings, logger: logger, onState: onState, onCall: onCall,
                  localAddressToward: { remote throws(SIPTransportError) in try SIPSocketAddress.localAddress(toward: remote) })
    }

    init(settings: SIPUserAgentSettings, logger: Logger,
         onState: @escaping @Sendable (SIPRegistrationState) -> Void,
         onCall: @escaping @Sendable (SIPCallEvent) -> Void,
         localAddressToward: @escaping @Sendable (SIPSocketAddress) throws(SIPTransportError) -> SIPSocketAddress) {
        self.settings = settings
        self.logger = logger
        self.onState = onState
        self.onCall = onCall
        self.localAddressToward = localAddressToward
    }

    /// The UDP port requests reach us on; 0 until the thread has bound it.
    public var localPort: Int { boundPort.load(ordering: .acquiring) }

    /// The TCP port phones and proxies connect to (transport TCP only); 0 until the thread listens on it.
    public var streamPort: Int { boundStreamPort.load(ordering: .acquiring) }

    /// Connections accepted, refused over the limit, closed for bytes that are no SIP, and closed idle.
    public var connections: SIPStreamCounters { streamCounters.withLock { $0 } }

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

    /// 180 Ringing (with our To-tag) to a call not answered yet.
    public func ring(callID: String) { submit(.ring(callID: callID)) }

    /// 200 OK with `sdp` (application/sdp) and our Contact, retransmitted until the ACK (RFC 3261 §13.3.1.4).
    public func answer(callID: String, sdp: String) { submit(.answer(callID: callID, sdp: sdp)) }

    /// A final non-2xx (486, 480, 488, 603, 403…) to an INVITE not answered yet; a no-op otherwise.
    public func refuse(callID: String, status: Int, reason: String) {
        submit(.refuse(callID: callID, status: status, reason: reason))
    }

    /// Calls `uri` (RFC 3261 §13.2.1): INVITE with `offer` (SDP) through the registrar as outbound proxy,
    /// answering a 401/407 with the configured credentials. `callID` is the caller's choice and names the call
    /// in `.progress`, `.accepted`, `.rejected`, `.ended` and in `hangup` (CANCEL before the answer, BYE after).
    /// Throws for a URI that is not a SIP URI; everything after is reported as events.
    public func invite(callID: String, to uri: String, offer: String) throws(SIPError) {
        let target = try SIPURI(uri)
        submit(.invite(callID: callID, target: target, offer: offer))
    }

    /// The host's addresses changed (rtnetlink): the `sip` thread checks which local address reaches the
    /// registrar now and, when it is another one, registers the new Contact at once (TCP: over a new
    /// connection). The same address as before changes nothing.
    public func addressesChanged() { submit(.addressesChanged) }

    /// An answered call gets BYE (RFC 3261 §15.1.1); one not answered yet is refused with 480.
    public func hangup(callID: String) { submit(.hangup(callID: callID)) }

    func bound(port: Int) { boundPort.store(port, ordering: .releasing) }
    func boundStream(port: Int) { boundStreamPort.store(port, ordering: .releasing) }
    func count(_ change: (inout SIPStreamCounters) -> Void) { streamCounters.withLock { change(&$0) } }

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
