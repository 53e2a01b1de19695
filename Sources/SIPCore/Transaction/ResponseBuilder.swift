/// A response to a request (RFC 3261 §8.2.6.2): Via, From, Call-ID and CSeq copied, To copied with `toTag`
/// added when it has none (100 Trying carries no tag, §8.2.6.1).
public enum ResponseBuilder {
    public static func response(
        to request: SIPMessage, status: Int, reason: String, toTag: String? = nil, extraHeaders: [SIPHeader] = [],
        body: [UInt8] = []
    ) -> SIPMessage {
        var headers: [SIPHeader] = request.values(SIPHeaderName.via).map { SIPHeader(SIPHeaderName.via, $0) }
        headers += request.values(SIPHeaderName.from).map { SIPHeader(SIPHeaderName.from, $0) }
        for value in request.values(SIPHeaderName.to) {
            var to = value
            if let toTag, var parsed = try? NameAddress(parsing: value, header: SIPHeaderName.to), parsed.tag == nil {
                parsed.tag = toTag
                to = parsed.serialized
            }
            headers.append(SIPHeader(SIPHeaderName.to, to))
        }
        headers += request.values(SIPHeaderName.callID).map { SIPHeader(SIPHeaderName.callID, $0) }
        headers += request.values(SIPHeaderName.cseq).map { SIPHeader(SIPHeaderName.cseq, $0) }
        headers += extraHeaders
        return SIPMessage(startLine: .response(status: status, reason: reason), headers: headers, body: body)
    }
}
