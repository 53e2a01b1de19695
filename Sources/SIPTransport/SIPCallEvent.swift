/// An INVITE outside any dialog, as the call coordinator sees it (RFC 3261 §13.3). `callID` names the call in
/// every later command (`ring`, `answer`, `refuse`, `hangup`) and event.
public struct SIPIncomingInvite: Sendable, Equatable {
    /// The INVITE's Call-ID.
    public var callID: String
    /// From's URI as text, e.g. "sip:alice@192.0.2.7:5062".
    public var fromURI: String
    /// From URI's user part ("alice"), nil if none.
    public var fromUser: String?
    /// From's display name, unquoted.
    public var displayName: String?
    /// The SDP body ("" when the INVITE had none).
    public var offer: String
    /// The numeric IP the INVITE came from.
    public var sourceHost: String

    public init(callID: String, fromURI: String, fromUser: String?, displayName: String?, offer: String, sourceHost: String) {
        self.callID = callID
        self.fromURI = fromURI
        self.fromUser = fromUser
        self.displayName = displayName
        self.offer = offer
        self.sourceHost = sourceHost
    }
}

/// Why a call ended without the coordinator asking.
public enum SIPCallEndReason: Sendable, Equatable {
    /// The peer sent BYE (answered 200).
    case bye
    /// No ACK for our 2xx within timer H (64*T1, RFC 3261 §13.3.1.4); we sent BYE.
    case noAck
    /// Sending to the peer failed.
    case transport(String)
}

/// What happens to calls, incoming and outgoing, reported from the `sip` thread (the callback must hand off).
public enum SIPCallEvent: Sendable, Equatable {
    /// A new INVITE; 100 Trying was already sent.
    case invited(SIPIncomingInvite)
    /// The ACK for our 2xx arrived.
    case confirmed(callID: String)
    /// CANCEL before our final answer: 200 to the CANCEL and 487 to the INVITE were sent.
    case cancelled(callID: String)
    /// The peer's BYE (200 sent), no ACK within timer H (we sent BYE), or a transport error.
    case ended(callID: String, reason: SIPCallEndReason)
    /// Our INVITE got a provisional response (RFC 3261 §13.2.2.1): 180 (`ringing`), 183 or another 1xx.
    case progress(callID: String, ringing: Bool)
    /// Our INVITE got a 2xx (ACKed, the dialog confirmed); `answer` is its SDP ("" without a body).
    case accepted(callID: String, answer: String)
    /// Our INVITE got a final non-2xx (ACKed by the transaction), or none: a timeout counts as 408 and a
    /// transport failure as 503 (§8.1.3.1).
    case rejected(callID: String, status: Int, reason: String)
}
