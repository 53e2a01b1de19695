import Glibc
import IntercomPlatform
import Logging
import SIPCore

/// The SIP thread's state and poll loop (`SIPUserAgent`): sockets, transactions, deadlines, registration.
/// Everything here is confined to that thread.
final class SIPUserAgentLoop {
    enum TimerKey: Hashable {
        case client(TransactionKey, TransactionTimer)
        case server(TransactionKey, TransactionTimer)
        case refresh
        case keepAlive
        /// A call's 2xx retransmission (T1 doubling to T2) and its wait for the ACK (64*T1), RFC 3261 §13.3.1.4.
        case okRetransmit(callID: String)
        case okTimeout(callID: String)
        /// Timers A, B, D of an outgoing call's INVITE client transaction (§17.1.1).
        case inviteClient(TransactionKey, TransactionTimer)
    }

    enum Purpose: Equatable {
        case register
        case keepAlive
        /// A BYE in a call's dialog: its answer (200, 481, a timeout) changes nothing, the call is already over.
        case bye
        /// A CANCEL of our INVITE (§9.1): the INVITE's final response (487 or 2xx) decides, not this answer.
        case cancel
    }

    /// Where a response to a received request goes: back to its UDP source, over the registrar connection,
    /// or over the accepted connection (by its number) the request came on.
    enum ReplyRoute {
        case udp(SIPSocketAddress)
        case stream
        case inbound(UInt64)
    }

    enum ServerTransaction {
        case nonInvite(NonInviteServerTransaction)
        case invite(InviteServerTransaction)
    }

    let agent: SIPUserAgent
    var settings: SIPUserAgentSettings { agent.settings }
    var logger: Logger { agent.logger }
    let epoch = ContinuousClock.now
    var udp: SIPDatagramSocket?
    var stream: SIPStreamConnection?
    /// Over TCP: the listening socket and the connections accepted on it, by a number never reused (a
    /// descriptor is, and a response must not go to the next connection that got it).
    var listener: SIPStreamListener?
    var inbound: [UInt64: SIPStreamConnection] = [:]
    var nextInboundID: UInt64 = 0
    var registrar: SIPSocketAddress?
    var registration: RegistrationClient?
    /// `destination` nil: the registrar (over its transport); otherwise where a call's request goes.
    var clients: [TransactionKey: (transaction: NonInviteClientTransaction, purpose: Purpose, destination: ReplyRoute?)] = [:]
    var servers: [TransactionKey: (transaction: ServerTransaction, route: ReplyRoute)] = [:]
    /// Incoming calls by Call-ID (SIPUserAgentLoop+Calls).
    var calls: [String: SIPCall] = [:]
    /// Calls we placed, by Call-ID, and their INVITE client transactions (SIPUserAgentLoop+Outgoing).
    var outgoing: [String: SIPOutgoingCall] = [:]
    var inviteClients: [TransactionKey: InviteClientTransaction] = [:]
    var deadlines = SIPDeadlines<TimerKey>()
    var backoff = RegistrationBackoff()
    var reported: SIPRegistrationState?
    /// The failure last logged, so that the same failure on every retry is logged once.
    var lastFailure: SIPRegistrationState?
    var keepAliveSequence: UInt32 = 0
    var stopping = false
    var stopDeadline: Duration?
    var random = SystemRandomNumberGenerator()
    /// The public address learned from REGISTER responses, registered instead of ours (RFC 3581; UDP only:
    /// over TCP the registrar sees the connection's port, not the UDP port our Contact names).
    var contactRewrite: ContactRewrite

    init(agent: SIPUserAgent) {
        self.agent = agent
        contactRewrite = ContactRewrite(enabled: agent.settings.contactRewrite && agent.settings.transport == .udp)
    }

    func now() -> Duration { ContinuousClock.now - epoch }

    var reliable: Bool { settings.transport == .tcp }

    func run() {
        while !finished {
            for command in agent.takeCommands() { handle(command) }
            for key in deadlines.takeDue(at: now()) { fire(key) }
            if finished { break }
            pollOnce()
        }
        stream = nil
        inbound = [:]
        listener = nil
        udp = nil
    }

    private var finished: Bool {
        guard stopping else { return false }
        if let stopDeadline, now() >= stopDeadline { return true }
        guard let registration else { return true }
        return registration.status == .unregistered || !clients.values.contains { $0.purpose == .register }
    }

    private func handle(_ command: SIPUserAgent.Command) {
        switch command {
        case .start:
            openSocket()
            prepareRegistration()
        case .ring(let callID): ring(callID)
        case .answer(let callID, let sdp): answerCall(callID, sdp: sdp)
        case .refuse(let callID, let status, let reason): refuse(callID, status: status, reason: reason)
        case .hangup(let callID): hangup(callID)
        case .invite(let callID, let target, let offer): placeCall(callID, target: target, offer: offer)
        case .addressesChanged: addressesChanged()
        case .stop:
            endCallsForStop()
            endOutgoingForStop()
            stopping = true
            stopDeadline = now() + .seconds(2)
            deadlines.cancel(.keepAlive)
            if let registration, case .registered = registration.status {
                perform(registrationEvent: .stop)
            } else {
                stopDeadline = now()
            }
        }
    }

    /// The configured port, or any free one when it is taken (another SIP stack on the device): the Contact
    /// carries the port actually bound, so registration works either way.
    private func openSocket() {
        let family = settings.registrarHost.hasPrefix("[") ? AF_INET6 : AF_INET
        do throws(SIPTransportError) {
            let socket: SIPDatagramSocket
            do throws(SIPTransportError) {
                socket = try SIPDatagramSocket(family: family, port: settings.localPort)
            } catch {
                guard settings.localPort != 0 else { throw error }
                socket = try SIPDatagramSocket(family: family, port: 0)
                logger.error("SIP: cannot bind the configured UDP port; using another one (set sip.port)",
                             metadata: ["error": "\(error)", "port": "\(socket.local.port)"])
            }
            udp = socket
            agent.bound(port: Int(socket.local.port))
            logger.info("SIP listening", metadata: ["udp": "\(socket.local.port)"])
        } catch {
            logger.error("SIP: cannot open a UDP socket; registration over UDP fails until restart", metadata: ["error": "\(error)"])
        }
        if reliable { openListener(family: family, port: Int(udp?.local.port ?? UInt16(clamping: settings.localPort))) }
    }

    /// Polls the wake pipe and the sockets until the next deadline (at most a second).
    private func pollOnce() {
        var pollers = [pollfd(fd: agent.wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
        if let udp { pollers.append(pollfd(fd: udp.descriptor, events: Int16(POLLIN), revents: 0)) }
        if let stream { pollers.append(pollfd(fd: stream.descriptor, events: Int16(POLLIN), revents: 0)) }
        if let listener { pollers.append(pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)) }
        let open = inbound.map { (id: $0.key, descriptor: $0.value.descriptor) }
        let firstInbound = pollers.count
        for connection in open { pollers.append(pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)) }
        var timeout: Int64 = 1000
        if let next = deadlines.next { timeout = min(timeout, max(0, (next - now()).wholeMilliseconds + 1)) }
        if let stopDeadline { timeout = min(timeout, max(0, (stopDeadline - now()).wholeMilliseconds + 1)) }
        if !inbound.isEmpty { closeIdleInbound() }
        guard poll(&pollers, nfds_t(pollers.count), Int32(timeout)) > 0 else { return }
        if pollers[0].revents != 0 { agent.wakeup.drain() }
        for poller in pollers[1..<firstInbound] where poller.revents != 0 {
            if let udp, poller.fd == udp.descriptor { readDatagrams(udp) }
            if let stream, poller.fd == stream.descriptor { readStream(stream) }
            if let listener, poller.fd == listener.descriptor { acceptConnections(listener) }
        }
        // By number, not descriptor: a connection closed above may have had its descriptor reused.
        for (offset, connection) in open.enumerated() where pollers[firstInbound + offset].revents != 0 { readInbound(connection.id) }
    }

    private func fire(_ key: TimerKey) {
        switch key {
        case .client(let transaction, let timer): clientEvent(transaction, .timerFired(timer))
        case .server(let transaction, let timer): serverEvent(transaction, .timerFired(timer))
        case .refresh:
            if registration == nil { prepareRegistration() } else { perform(registrationEvent: .refreshTimerFired) }
        case .keepAlive: sendKeepAlive()
        case .okRetransmit(let callID): retransmitOK(callID)
        case .okTimeout(let callID): okTimedOut(callID)
        case .inviteClient(let transaction, let timer): inviteClientEvent(transaction, .timerFired(timer))
        }
    }

    func token(_ length: Int = 16) -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<length).map { _ in digits[Int(random.next() % 16)] })
    }
}
