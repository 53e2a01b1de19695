import SIPCore
@testable import SIPTransport

/// The scripted peer as the callee (UAS) of a call the agent places: it is also the registrar the INVITE goes
/// through, and answers with hand-made responses.
extension ScriptedCaller {
    /// Sends a response to `request` (Via, From, To, Call-ID, CSeq copied; `toTag` added to To).
    func reply(_ request: SIPMessage, _ status: Int, _ reason: String, toTag: String? = nil, extra: [SIPHeader] = [],
               body: String = "") throws {
        let response = ResponseBuilder.response(to: request, status: status, reason: reason, toTag: toTag,
                                                 extraHeaders: extra, body: Array(body.utf8))
        let destination = try SIPSocketAddress.resolve(host: "127.0.0.1", port: Int(agentPort), datagram: true)
        try socket.send(response.serialized(), to: destination)
    }

    /// The callee's Contact and SDP content type, for a 2xx.
    var calleeHeaders: [SIPHeader] {
        [SIPHeader(SIPHeaderName.contact, "<sip:reception@127.0.0.1:\(port)>"),
         SIPHeader(SIPHeaderName.contentType, "application/sdp")]
    }

    static let challenge = SIPHeader(SIPHeaderName.wwwAuthenticate,
                                     #"Digest realm="test", nonce="n0nce", qop="auth", algorithm=MD5"#)
}

/// A request with `method` (and CSeq number `cseq`, if given).
func isRequest(_ method: SIPMethod, cseq: UInt32? = nil) -> (SIPMessage) -> Bool {
    { $0.method == method && (cseq == nil || (try? $0.cseq().number) == cseq) }
}
