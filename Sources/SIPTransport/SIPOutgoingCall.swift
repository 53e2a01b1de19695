import SIPCore

/// One call the device places (the UAC side, RFC 3261 §13.2): the INVITE currently in flight (a digest retry
/// is a new INVITE with the next CSeq, same Call-ID and From tag, §22.2), its INVITE client transaction key,
/// and, once a 2xx arrived, the dialog and the ACK re-sent for every retransmitted 2xx (§13.2.2.4).
struct SIPOutgoingCall {
    enum Phase: Equatable {
        /// INVITE sent, no provisional response yet: a CANCEL must wait (§9.1).
        case calling
        /// A provisional response arrived: CANCEL may go.
        case proceeding
        /// A 2xx arrived and was ACKed: the dialog is confirmed, BYE ends it.
        case confirmed
    }

    let callID: String
    let target: SIPURI
    let offer: [UInt8]
    /// Our From (AOR and tag) and Contact, as in REGISTER.
    let from: NameAddress
    let contact: SIPURI
    var invite: SIPMessage
    var inviteKey: TransactionKey
    var phase: Phase = .calling
    var dialog: Dialog?
    /// The ACK of the 2xx, sent again for each retransmitted 2xx (§13.2.2.4).
    var ack: SIPMessage?
    /// `hangup` before any provisional response: the CANCEL goes when one arrives (§9.1).
    var cancelPending = false
    /// CANCEL sent (or pending): the final response ends the call without an event, the coordinator asked.
    var cancelled = false
    /// Digest answers given so far: a second challenge to an answered one means wrong credentials (§22.2).
    var authAttempts = 0
    var digest: DigestClient?
}
