import CallCore
import Logging
import ParseClient
import ParseWire
import SIPTransport

/// One incoming SIP call as the coordinator's room (issue #18): the INVITE is a caller who joined and sent an
/// offer, the machine's `ringing`/`bye` become 180 and the final responses or a BYE, the media's answer
/// becomes the 200 OK, and the peer's BYE or CANCEL a `bye`. A right door code typed on the caller's keypad
/// is a door-open request, which the machine grants only where `call.allow_door_open` is set.
actor SIPIncomingDialog: SIPRoomDialog {
    nonisolated let invite: SIPIncomingInvite
    nonisolated var callID: String { invite.callID }
    nonisolated let sessionID: String
    nonisolated let events: AsyncStream<SignalingConnection.Event>
    private let sink: AsyncStream<SignalingConnection.Event>.Continuation
    private let keypad = SIPKeypad()
    private let agent: SIPUserAgent
    private let calls: SIPCalls
    private let logger: Logger

    /// Where the INVITE stands: no final response yet, answered 200, or over.
    private enum Progress { case offered, answered, over }
    private var progress = Progress.offered
    private var started = false

    init(invite: SIPIncomingInvite, agent: SIPUserAgent, calls: SIPCalls, logger: Logger) {
        self.invite = invite
        sessionID = Self.sessionID(callID: invite.callID)
        self.agent = agent
        self.calls = calls
        self.logger = logger
        (events, sink) = AsyncStream.makeStream()
    }

    /// The caller as the call machine sees a ringing call. A SIP call has no row and no token expiry; the
    /// machine's ring timeout ends it first.
    nonisolated func incomingCall(now: CallInstant) -> IncomingCall {
        IncomingCall(rowID: sessionID, sessionID: sessionID, callerID: invite.fromURI, callerTitle: callerName,
                     expiresAt: now + .seconds(600), wantsVideo: false, wantsAudio: true)
    }

    nonisolated var callerName: String { invite.displayName ?? invite.fromUser ?? invite.fromURI }

    /// The call's media: the offer answered with G.711 on an RTP socket of its own.
    nonisolated func mediaSession() -> any CallMediaSession {
        SIPCallMedia(dialog: self, media: calls.media, srtp: calls.srtp, codecs: calls.codecs, video: calls.video, logger: logger)
    }

    // MARK: RoomConnection

    func start() {
        guard !started else { return }
        started = true
        sink.yield(.joined(peerId: "device", role: "publisher",
                           peers: [SignalingPeer(peerId: Self.peerID, name: callerName, role: "publisher")], iceServers: []))
        sink.yield(.signal(from: Self.peerID, .offer(sdp: invite.offer)))
        keypad.deliver { key in await self.typed(key) }
    }

    func send(_ data: SignalPayload, to peerId: String) {
        switch data {
        case .ringing:
            if progress == .offered { agent.ring(callID: invite.callID) }
        case .answer(let sdp):
            guard progress == .offered else { return }
            progress = .answered
            agent.answer(callID: invite.callID, sdp: sdp)
        case .bye(let reason):
            end(reason)
        default:
            break  // texts, camera lists and mute state have no SIP counterpart here
        }
    }

    func close() {
        end(progress == .offered ? .timeout : .hangup)
        keypad.finish()
        sink.finish()
        calls.forget(invite.callID)
    }

    func reconnectNow() {}  // the SIP thread keeps its own socket; the media is on a socket of its own

    // MARK: From the SIP thread and the media

    func sipEvent(_ event: SIPCallEvent) {
        switch event {
        case .invited, .progress, .accepted, .rejected:
            break  // an incoming call's dialog: the outgoing-call events do not occur
        case .confirmed:
            logger.info("SIP call confirmed (ACK)", metadata: ["session": "\(sessionID)"])
        case .cancelled:
            progress = .over
            sink.yield(.signal(from: Self.peerID, .bye(.hangup)))
        case .ended(_, .bye):
            progress = .over
            sink.yield(.signal(from: Self.peerID, .bye(.hangup)))
        case .ended(_, let reason):
            progress = .over
            logger.warning("SIP call lost: \(reason)", metadata: ["session": "\(sessionID)"])
            sink.yield(.signal(from: Self.peerID, .bye(.error)))
        }
    }

    /// The offer cannot be answered (no common codec, no audio): 488 (RFC 3261 §13.3.1.3).
    func unusableOffer(_ why: String) {
        guard progress == .offered else { return }
        progress = .over
        logger.notice("SIP offer refused (488): \(why)", metadata: ["session": "\(sessionID)"])
        agent.refuse(callID: invite.callID, status: 488, reason: "Not Acceptable Here")
        sink.yield(.signal(from: Self.peerID, .bye(.error)))  // the call ends now, not at a media timeout
    }

    /// A key the caller typed (RFC 4733), from the media's thread.
    nonisolated func key(_ key: Character) {
        keypad.press(key)
    }

    private func typed(_ key: Character) {
        guard progress == .answered else { return }
        if calls.doorKey(key, sessionID: sessionID) {
            sink.yield(.signal(from: Self.peerID, .door(action: "open")))
        }
    }

    private func end(_ reason: ParseWire.ByeReason) {
        switch progress {
        case .offered:
            let (status, phrase) = Self.refusal(for: reason)
            agent.refuse(callID: invite.callID, status: status, reason: phrase)
        case .answered:
            agent.hangup(callID: invite.callID)
        case .over:
            return
        }
        progress = .over
    }

    /// The final response that says `reason` to a caller still ringing (RFC 3261 §21.4, §21.6).
    static func refusal(for reason: ParseWire.ByeReason) -> (status: Int, phrase: String) {
        switch reason {
        case .busy: (486, "Busy Here")
        case .declined, .hangup: (603, "Decline")
        case .timeout: (480, "Temporarily Unavailable")
        case .error: (500, "Server Internal Error")
        }
    }
}
