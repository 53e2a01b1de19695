import SIPCore

/// One incoming call on the `sip` thread (RFC 3261 §13.3, §12.1.1): the INVITE, its server transaction, our
/// To-tag (generated once, in every response) and the UAS dialog, plus the 2xx the TU retransmits until the
/// ACK arrives (§13.3.1.4).
struct SIPCall {
    enum Phase: Equatable {
        /// 100 (and maybe 180) sent; no final answer yet.
        case offered
        /// 2xx sent, waiting for the ACK.
        case answered
        /// The ACK arrived.
        case confirmed
    }

    let invite: SIPMessage
    let inviteKey: TransactionKey
    let route: SIPUserAgentLoop.ReplyRoute
    /// Our Contact (`sip:user@<local address>:<port>`), as in REGISTER.
    let contact: SIPURI
    var dialog: Dialog
    var phase: Phase = .offered
    /// The SDP we last answered: a re-INVITE gets it again (a session refresh).
    var answeredSDP: [UInt8] = []
    /// The last 2xx to an INVITE and that INVITE's transaction key: retransmitted until its ACK, and again
    /// for a retransmission of that INVITE (the server transaction ended with the 2xx).
    var okResponse: SIPMessage?
    var okKey: TransactionKey?
    var awaitingAck = false
    var okInterval: Duration = .zero
    /// `hangup` while the 2xx was unacknowledged: the BYE waits for the ACK or timer H (§15).
    var hangupPending = false

    var callID: String { dialog.id.callID }
    var localTag: String { dialog.id.localTag }
}
