/// The REGISTER request (RFC 3261 §10.2): same Call-ID and From tag each time, CSeq counting up, Expires,
/// and an Authorization answering the last challenge, if any (§22.1: credentials are reused for the realm).
extension RegistrationClient {
    mutating func sendRegister(fresh: FreshTokens) -> RegistrationAction {
        sequence += 1
        let expires = stopping ? 0 : requestedExpires
        let via = Via(
            transport: config.transport, host: config.localHost, port: config.localPort,
            parameters: [SIPParameter("branch", Via.magicCookie + fresh.branch), SIPParameter("rport")])
        var headers = [
            SIPHeader(SIPHeaderName.via, via.serialized),
            SIPHeader(SIPHeaderName.maxForwards, "70"),
            SIPHeader(SIPHeaderName.from, NameAddress(displayName: config.quotedDisplayName, uri: config.addressOfRecord, parameters: [SIPParameter("tag", config.fromTag)]).serialized),
            SIPHeader(SIPHeaderName.to, NameAddress(displayName: config.quotedDisplayName, uri: config.addressOfRecord).serialized),
            SIPHeader(SIPHeaderName.callID, config.callID),
            SIPHeader(SIPHeaderName.cseq, CSeq(sequence, .register).serialized),
            SIPHeader(SIPHeaderName.contact, NameAddress(uri: config.contact).serialized),
            SIPHeader(SIPHeaderName.expires, "\(expires)"),
        ]
        // A contact given up for a new address: removed in the same request (§10.2.2, expires=0).
        headers += retired.map {
            SIPHeader(SIPHeaderName.contact, NameAddress(uri: $0, parameters: [SIPParameter("expires", "0")]).serialized)
        }
        if let (offered, proxy) = challenge.map({ ($0.0, $0.proxy) }), var client = digest,
            let value = try? client.authorization(
                for: offered, method: .register, uri: config.registrar.serialized, cnonce: fresh.cnonce)
        {
            digest = client
            answeredNonce = offered.nonce
            headers.append(SIPHeader(proxy ? SIPHeaderName.proxyAuthorization : SIPHeaderName.authorization, value))
        }
        return .send(SIPMessage(startLine: .request(method: .register, uri: config.registrar), headers: headers))
    }
}
