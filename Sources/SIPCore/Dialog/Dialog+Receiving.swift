/// Requests the peer sends inside the dialog (RFC 3261 §12.2.2).
extension Dialog {
    /// What a UAS does with an in-dialog request.
    public enum RequestCheck: Hashable, Sendable {
        case accept
        /// Lower CSeq than the last one: out of order, answer 500 (§12.2.2).
        case outOfOrder
    }

    /// Checks the CSeq order and remembers it; a target-refresh request (re-INVITE, UPDATE) updates the remote
    /// target from its Contact (§12.2.2).
    public mutating func receive(_ request: SIPMessage) throws(SIPError) -> RequestCheck {
        let cseq = try request.cseq()
        if request.method == .ack { return .accept }
        if let remoteSequence, cseq.number <= remoteSequence, request.method != .cancel { return .outOfOrder }
        if request.method != .cancel { remoteSequence = cseq.number }
        if request.method == .invite || request.method == .update, let contact = try request.contacts().first {
            remoteTarget = contact.uri
        }
        return .accept
    }

    /// A 2xx to our re-INVITE or UPDATE refreshes the remote target (§12.2.1.2).
    public mutating func receiveTargetRefresh(_ response: SIPMessage) throws(SIPError) {
        guard let status = response.statusCode, (200..<300).contains(status) else { return }
        if let contact = try response.contacts().first { remoteTarget = contact.uri }
    }
}
