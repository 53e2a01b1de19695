import ParseWire

/// What the relay does with one `signal` frame.
enum SignalingRelayDecision: Sendable, Equatable {
    case relay
    /// The recipient is gone (a normal race): the frame is dropped silently.
    case dropped
    /// The sender's role may not send this: answered `error forbidden`, never relayed.
    case forbidden(reason: String)
}

/// Who may send what in a call room (docs/backend.md "Security model"):
///
/// - a viewer (role `subscriber`) may send only `answer`, `candidate` and `bye`, and only to a publisher
///   that has sent it an offer: it can never start a negotiation, so it can never receive a party's media;
/// - a `door` request is relayed only from the call's caller (the receiver is the door);
/// - the two parties (role `publisher`) may send anything else, including payload types newer than this
///   server, untouched.
struct SignalingRoleRule: Sendable {
    static let offer = "offer"
    static let door = "door"
    static let viewerTypes: Set<String> = ["answer", "candidate", "bye"]

    let senderRole: SessionRole
    let senderIsCaller: Bool
    let recipientRole: SessionRole
    /// Whether the recipient has sent the sender an offer (only meaningful for a viewer sender).
    let recipientOffered: Bool

    func decide(type: String) -> SignalingRelayDecision {
        switch senderRole {
        case .subscriber:
            guard Self.viewerTypes.contains(type) else {
                return .forbidden(reason: "a view-only peer may send only answer, candidate and bye, not \"\(type)\"")
            }
            guard recipientRole == .publisher, recipientOffered else {
                return .forbidden(reason: "a view-only peer may signal only a publisher that offered to it")
            }
            return .relay
        case .publisher:
            if type == Self.door, !senderIsCaller {
                return .forbidden(reason: "only the call's caller may ask for the door")
            }
            return .relay
        }
    }
}
