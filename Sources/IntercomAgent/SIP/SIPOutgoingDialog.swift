import CallCore
import Logging
import ParseClient
import ParseWire
import SIPTransport

/// A SIP call the call button places (issue #18) as the coordinator's room. The callee is in the room from
/// the start (the INVITE is on its way to it); a 180 is its `ringing`, its 2xx answer plays the part of the
/// callee's offer on a WebRTC call (the machine accepts the call and starts the media, which reads the answer),
/// and a final refusal or its BYE is its `bye`. The machine's `bye` becomes CANCEL before the answer and BYE
/// after. A right door code typed on the callee's keypad is a door-open request, as on a call to the device.
actor SIPOutgoingDialog: SIPRoomDialog {
    nonisolated let callID: String
    nonisolated let sessionID: String
    /// The SIP URI called.
    nonisolated let target: String
    nonisolated let events: AsyncStream<SignalingConnection.Event>
    /// Our offer: its audio call and video sockets, owned here until the media session starts them.
    nonisolated let offer: SIPOutgoingOffer
    nonisolated var audio: SIPAudioCall { offer.audio }
    private let sink: AsyncStream<SignalingConnection.Event>.Continuation
    private let keypad = SIPKeypad()
    private let agent: SIPUserAgent
    private let calls: SIPCalls
    private let logger: Logger

    /// Where the INVITE stands: not sent, waiting for a final response, answered 2xx, or over.
    private enum Progress { case idle, calling, answered, over }
    private var progress = Progress.idle
    private var rang = false

    init(callID: String, target: String, offer: SIPOutgoingOffer, agent: SIPUserAgent, calls: SIPCalls, logger: Logger) {
        self.callID = callID
        sessionID = Self.sessionID(callID: callID)
        self.target = target
        self.offer = offer
        self.agent = agent
        self.calls = calls
        self.logger = logger
        (events, sink) = AsyncStream.makeStream()
    }

    nonisolated func mediaSession() -> any CallMediaSession {
        SIPOutgoingCallMedia(dialog: self, media: calls.media, postDialDigits: calls.postDialDigits, logger: logger)
    }

    // MARK: RoomConnection

    func start() {
        guard progress == .idle else { return }
        progress = .calling
        sink.yield(.joined(peerId: "device", role: "publisher",
                           peers: [SignalingPeer(peerId: Self.peerID, name: target, role: "publisher")], iceServers: []))
        do {
            try agent.invite(callID: callID, to: target, offer: offer.sdp)
            logger.notice("SIP call to \(target)", metadata: ["session": "\(sessionID)"])
        } catch {
            progress = .over
            logger.error("SIP call to \(target) not placed: \(error)", metadata: ["session": "\(sessionID)"])
            sink.yield(.signal(from: Self.peerID, .bye(.error)))
        }
        keypad.deliver { key in await self.typed(key) }
    }

    func send(_ data: SignalPayload, to peerId: String) {
        if case .bye = data { end() }
        // Ringing, answers, texts, camera lists and mute state have no SIP counterpart on a call we place.
    }

    func close() async {
        end()
        keypad.finish()
        sink.finish()
        calls.forget(callID)
        await audio.stop()  // idempotent: the media session may have stopped it already
    }

    func reconnectNow() {}  // the SIP thread keeps its own socket; the media is on a socket of its own

    // MARK: From the SIP thread and the media

    func sipEvent(_ event: SIPCallEvent) {
        switch event {
        case .progress(_, let ringing):
            guard progress == .calling, ringing, !rang else { return }
            rang = true
            sink.yield(.signal(from: Self.peerID, .ringing))
        case .accepted(_, let answer):
            switch progress {
            case .calling:
                progress = .answered
                logger.notice("SIP call to \(target) answered", metadata: ["session": "\(sessionID)"])
                sink.yield(.signal(from: Self.peerID, .offer(sdp: answer)))
            case .over:
                agent.hangup(callID: callID)  // the answer crossed our CANCEL: the dialog exists, end it with BYE
            case .idle, .answered:
                break
            }
        case .rejected(_, let status, let reason):
            guard progress == .calling else { return }
            progress = .over
            logger.notice("SIP call to \(target) refused: \(status) \(reason)", metadata: ["session": "\(sessionID)"])
            sink.yield(.signal(from: Self.peerID, .bye(Self.byeReason(status: status))))
        case .ended(_, .bye):
            guard progress != .over else { return }
            progress = .over
            sink.yield(.signal(from: Self.peerID, .bye(.hangup)))
        case .ended(_, let reason):
            guard progress != .over else { return }
            progress = .over
            logger.warning("SIP call lost: \(reason)", metadata: ["session": "\(sessionID)"])
            sink.yield(.signal(from: Self.peerID, .bye(.error)))
        case .invited, .confirmed, .cancelled:
            break  // a call we place: the incoming-call events do not occur
        }
    }

    /// The callee's answer is unusable (no codec we offered): the call ends with BYE, reported as an error.
    func unusableAnswer(_ why: String) {
        guard progress == .answered else { return }
        logger.notice("SIP answer from \(target) unusable: \(why)", metadata: ["session": "\(sessionID)"])
        end()
        sink.yield(.signal(from: Self.peerID, .bye(.error)))
    }

    /// A key the callee typed (RFC 4733), from the media's thread.
    nonisolated func key(_ key: Character) {
        keypad.press(key)
    }

    private func typed(_ key: Character) {
        guard progress == .answered else { return }
        if calls.doorKey(key, sessionID: sessionID) {
            sink.yield(.signal(from: Self.peerID, .door(action: "open")))
        }
    }

    private func end() {
        switch progress {
        case .idle:
            progress = .over
        case .calling, .answered:
            progress = .over
            agent.hangup(callID: callID)  // CANCEL before the answer, BYE after (SIPUserAgent)
        case .over:
            break
        }
    }

    /// What a final refusal of our INVITE says in the call's vocabulary (RFC 3261 §21.4–21.6).
    static func byeReason(status: Int) -> ParseWire.ByeReason {
        switch status {
        case 486, 600: .busy
        case 603: .declined
        case 408, 480, 487: .timeout
        default: .error
        }
    }
}
