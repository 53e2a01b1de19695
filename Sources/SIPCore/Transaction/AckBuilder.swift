/// The ACK an INVITE client transaction sends for a 300–699 response (RFC 3261 §17.1.1.3): same Request-URI,
/// Call-ID, From, CSeq number and top Via as the INVITE, To of the response (with its tag), the INVITE's Route.
enum AckBuilder {
    static func ack(for invite: SIPMessage, response: SIPMessage) -> SIPMessage {
        guard case .request(_, let uri) = invite.startLine else { preconditionFailure("ACK built for a response") }
        var headers: [SIPHeader] = []
        if let topVia = invite.listValues(SIPHeaderName.via).first { headers.append(SIPHeader(SIPHeaderName.via, topVia)) }
        headers.append(SIPHeader(SIPHeaderName.maxForwards, "70"))
        for name in [SIPHeaderName.from, SIPHeaderName.callID] {
            headers += invite.values(name).map { SIPHeader(name, $0) }
        }
        headers += response.values(SIPHeaderName.to).map { SIPHeader(SIPHeaderName.to, $0) }
        let number = (try? invite.cseq().number) ?? 0
        headers.append(SIPHeader(SIPHeaderName.cseq, CSeq(number, .ack).serialized))
        headers += invite.values(SIPHeaderName.route).map { SIPHeader(SIPHeaderName.route, $0) }
        return SIPMessage(startLine: .request(method: .ack, uri: uri), headers: headers)
    }
}
