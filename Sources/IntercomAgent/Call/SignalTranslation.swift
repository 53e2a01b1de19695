import CallCore
import ParseClient
import ParseWire

/// Between the signaling wire (ParseWire/ParseClient) and the call machine's vocabulary (CallCore).
enum SignalTranslation {
    /// What the machine hears of a signaling event; SDP and candidates go to the media session instead.
    /// `returned` maps the new `peerId` of a peer that came back to its old one (`CallRoom.returning`);
    /// `dropped` says a leaving peer's socket went away without leaving (`CallRoom.setAway`).
    static func remoteSignals(
        _ event: SignalingConnection.Event, returned: [String: String] = [:], dropped: Bool = false
    ) -> [RemoteSignal] {
        let arrival = { (peer: SignalingPeer) -> RemoteSignal in
            if let old = returned[peer.peerId] { return .peerReturned(old: old, new: peer.peerId) }
            return Self.arrival(peer)
        }
        switch event {
        case .joined(_, _, let peers, _):
            return peers.map(arrival)
        case .peerJoined(let peer):
            return [arrival(peer)]
        case .peerLeft(let peerId, _):
            return [dropped ? .peerDropped(peer: peerId) : .peerLeft(peer: peerId)]
        case .signal(let from, let payload):
            switch payload {
            case .ringing: return [.ringing(from: from)]
            case .offer: return [.offer(from: from)]
            case .answer: return [.answer(from: from)]
            case .candidate: return []
            case .bye(let reason): return [.bye(from: from, reason: byeReason(reason))]
            case .door: return [.doorOpenRequest(from: from)]
            case .media, .text, .textAck, .camera, .cameras, .cameraError:
                return []  // shown, logged and answered by the coordinator; no state change
            }
        case .refused(.rateLimited, _), .refused(.badSignal, _):
            return []  // one signal refused, the room kept (the coordinator logs it)
        case .refused(let code, let message):
            return [.sessionError("\(code.rawValue): \(message)")]
        case .closed:
            return [.sessionError("the signaling connection closed")]
        }
    }

    /// A full party (publisher token) joins; a view-only token asks to watch.
    static func arrival(_ peer: SignalingPeer) -> RemoteSignal {
        peer.role == "subscriber" ? .viewerJoinRequest(peer: peer.peerId) : .peerJoined(peer: peer.peerId)
    }

    static func byeReason(_ reason: ParseWire.ByeReason) -> CallCore.ByeReason {
        CallCore.ByeReason(rawValue: reason.rawValue) ?? .error
    }

    static func payload(_ signal: CallSignal) -> SignalPayload {
        switch signal {
        case .ringing: .ringing
        case .bye(let reason): .bye(ParseWire.ByeReason(rawValue: reason.rawValue) ?? .error)
        case .text(let id, let text): .text(id: id, text: text)
        }
    }
}
