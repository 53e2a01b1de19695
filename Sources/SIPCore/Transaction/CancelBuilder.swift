/// CANCEL for a pending INVITE (RFC 3261 §9.1): same Request-URI, Call-ID, To, From and CSeq number as the
/// INVITE, its top Via only (same branch, so the server matches it to the INVITE's transaction), its Route.
/// Send it only after a provisional response arrived (§9.1), in its own non-INVITE client transaction.
public enum CancelBuilder {
    public static func cancel(for invite: SIPMessage) -> SIPMessage {
        guard case .request(.invite, let uri) = invite.startLine else {
            preconditionFailure("CANCEL built for something other than an INVITE")
        }
        var headers: [SIPHeader] = []
        if let topVia = invite.listValues(SIPHeaderName.via).first { headers.append(SIPHeader(SIPHeaderName.via, topVia)) }
        headers.append(SIPHeader(SIPHeaderName.maxForwards, "70"))
        for name in [SIPHeaderName.from, SIPHeaderName.to, SIPHeaderName.callID] {
            headers += invite.values(name).map { SIPHeader(name, $0) }
        }
        let number = (try? invite.cseq().number) ?? 0
        headers.append(SIPHeader(SIPHeaderName.cseq, CSeq(number, .cancel).serialized))
        headers += invite.values(SIPHeaderName.route).map { SIPHeader(SIPHeaderName.route, $0) }
        return SIPMessage(startLine: .request(method: .cancel, uri: uri), headers: headers)
    }
}
