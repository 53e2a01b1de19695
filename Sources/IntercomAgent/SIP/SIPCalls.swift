import ControlsCore
import IntercomPlatform
import Logging
import SIPTransport
import Synchronization
import WebRTCCore

/// The device's SIP calls (issue #18): each INVITE from the SIP thread becomes a dialog the coordinator rings
/// like a call row, unless its caller is outside `[sip] allow` (403); the call button's SIP target becomes a
/// dialog the coordinator treats like a created call row (`dial`). The keypad door code is one policy for
/// the whole device, so wrong codes lock it for every caller (a From header is forged at will).
final class SIPCalls: Sendable {
    let media: MediaService
    private let coordinator: CallCoordinator
    /// Callers admitted (a SIP URI, or a user part / number); empty admits anyone who reaches the device.
    private let allowed: [String]
    private let doorCode: Mutex<DoorCodePolicy?>
    /// `[sip] srtp`: whether a call's RTP/SAVP (SDES) offer is refused, taken or required, and what the call
    /// button's calls offer.
    let srtp: SIPSRTPMode
    /// `[sip] codecs`: the audio codecs a call's answer chooses from and the call button's calls offer, in order.
    let codecs: [SIPAudioCodec]
    /// `[sip] post_dial_digits`: keys sent as RFC 4733 events once a call the device placed is answered.
    let postDialDigits: String
    /// `[sip] video`: VP8 answered and offered beside the audio; false: audio only.
    let video: Bool
    private let dialogs = Mutex<[String: any SIPRoomDialog]>([:])
    private let logger: Logger

    init(media: MediaService, coordinator: CallCoordinator, allowed: [String], doorCode: DoorCodePolicy.Configuration?,
         srtp: SIPSRTPMode, codecs: [SIPAudioCodec], postDialDigits: String = "", video: Bool = true, logger: Logger) {
        self.srtp = srtp
        self.video = video
        self.postDialDigits = postDialDigits
        self.codecs = codecs
        self.media = media
        self.coordinator = coordinator
        self.allowed = allowed
        self.doorCode = Mutex(doorCode.map { DoorCodePolicy(configuration: $0) })
        self.logger = logger
    }

    /// What the SIP thread reported, handed over in order.
    func handle(_ event: SIPCallEvent, agent: SIPUserAgent) async {
        switch event {
        case .invited(let invite):
            guard admits(invite) else {
                logger.notice("SIP call from \(invite.fromURI) refused (403): not in [sip] allow")
                agent.refuse(callID: invite.callID, status: 403, reason: "Forbidden")
                return
            }
            let dialog = SIPIncomingDialog(invite: invite, agent: agent, calls: self, logger: logger)
            dialogs.withLock { $0[invite.callID] = dialog }
            doorCode.withLock { $0?.callStarted() }
            logger.notice("SIP call from \(dialog.callerName) <\(invite.fromURI)>", metadata: ["session": "\(dialog.sessionID)"])
            await coordinator.sipInvited(dialog)
        case .confirmed(let callID), .cancelled(let callID), .ended(let callID, _), .progress(let callID, _),
             .accepted(let callID, _), .rejected(let callID, _, _):
            guard let dialog = dialogs.withLock({ $0[callID] }) else { return }
            await dialog.sipEvent(event)
        }
    }

    /// Prepares a call to `uri` for the call button: our offer (audio, and VP8 video beside it) on RTP ports
    /// bound on `localHost` (the address that reaches the registrar, which relays the INVITE) and its dialog, which sends the INVITE when the
    /// coordinator joins it.
    func dial(_ uri: String, localHost: String, agent: SIPUserAgent) -> OutgoingCallPlacer.Result {
        let audio: SIPAudioCall
        do {
            audio = try media.sipAudioOffer(localHost: localHost, codecs: codecs, srtp: srtp)
        } catch {
            return .failed(reason: "no RTP port for the SIP call: \(error)")
        }
        let callID = Self.newCallID()
        let dialog = SIPOutgoingDialog(callID: callID, target: uri, offer: SIPOutgoingOffer(audio: audio, video: video, logger: logger),
                                       agent: agent, calls: self, logger: logger)
        dialogs.withLock { $0[callID] = dialog }
        return .created(rowID: dialog.sessionID, sessionID: dialog.sessionID,
                        route: CallRoom.Route(signalURL: "sip", publisherToken: nil, subscriberToken: nil, iceServers: [],
                                              dialog: dialog))
    }

    /// A Call-ID unique in space and time (RFC 3261 §8.1.1.4): 128 random bits.
    static func newCallID() -> String {
        (0 ..< 16).map { _ in String(format: "%02x", UInt8.random(in: 0 ... 255)) }.joined()
    }

    func forget(_ callID: String) {
        dialogs.withLock { _ = $0.removeValue(forKey: callID) }
    }

    /// One key typed in `sessionID`'s call; true when it completed the right code.
    func doorKey(_ key: Character, sessionID: String) -> Bool {
        let now = MonotonicInstant(sinceBoot: MonotonicClock.now())
        let typed: ([DoorCodePolicy.Action], Duration)? = doorCode.withLock { stored in
            guard var policy = stored else { return nil }
            defer { stored = policy }
            return (policy.key(key, at: now), policy.configuration.lockout)
        }
        guard let (actions, lockout) = typed else { return false }
        var opens = false
        for action in actions {
            switch action {
            case .openDoor:
                opens = true
                logger.notice("SIP door code accepted", metadata: ["session": "\(sessionID)"])
            case .wrongCode(let remaining):
                logger.warning("SIP door code wrong (\(remaining) more lock the keypad)", metadata: ["session": "\(sessionID)"])
            case .lockedOut(let until):
                logger.warning("SIP door code wrong too often: keypad locked for \(lockout)",
                               metadata: ["session": "\(sessionID)", "until": "\(until)"])
            case .cleared:
                break
            }
        }
        return opens
    }

    /// An entry admits the From URI as written, the same without its port and parameters (`sip:user@host`),
    /// or its user part alone (a number).
    private func admits(_ invite: SIPIncomingInvite) -> Bool {
        guard !allowed.isEmpty else { return true }
        let bare = Self.userAtHost(invite.fromURI)
        return allowed.contains { $0 == invite.fromURI || $0 == bare || $0 == invite.fromUser }
    }

    /// `sip:user@host` of a URI such as `sip:user@host:5062;transport=udp` (an IPv6 host keeps its brackets).
    static func userAtHost(_ uri: String) -> String {
        guard let at = uri.lastIndex(of: "@") else { return uri }
        var host = uri[uri.index(after: at)...].prefix { $0 != ";" && $0 != "?" }
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[...close]
        } else if let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        return String(uri[..<uri.index(after: at)] + host)
    }
}
