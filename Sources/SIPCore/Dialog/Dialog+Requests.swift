/// Requests inside a dialog (RFC 3261 §12.2.1.1) and the ACK for a 2xx (§13.2.2.4).
extension Dialog {
    /// A new request (BYE, re-INVITE, INFO…): the next local CSeq, To/From with the dialog's tags, and the
    /// Request-URI and Route from the remote target and route set. `via` carries a fresh branch from the caller.
    public mutating func makeRequest(_ method: SIPMethod, via: Via, contact: NameAddress? = nil, body: [UInt8] = [])
        -> SIPMessage
    {
        precondition(method != .ack && method != .cancel, "ACK and CANCEL reuse the CSeq of their request")
        localSequence += 1
        return request(method, cseq: CSeq(localSequence, method), via: via, contact: contact, body: body)
    }

    /// The ACK for a 2xx to the INVITE with CSeq number `inviteSequence`: the TU, not the transaction, sends it
    /// (§13.2.2.4), with a new branch.
    public func makeAck(inviteSequence: UInt32, via: Via, body: [UInt8] = []) -> SIPMessage {
        request(.ack, cseq: CSeq(inviteSequence, .ack), via: via, contact: nil, body: body)
    }

    private func request(_ method: SIPMethod, cseq: CSeq, via: Via, contact: NameAddress?, body: [UInt8])
        -> SIPMessage
    {
        var to = remoteParty
        to.tag = id.remoteTag
        var from = localParty
        from.tag = id.localTag
        let (requestURI, routes) = routing()
        var headers = [
            SIPHeader(SIPHeaderName.via, via.serialized),
            SIPHeader(SIPHeaderName.maxForwards, "70"),
            SIPHeader(SIPHeaderName.from, from.serialized),
            SIPHeader(SIPHeaderName.to, to.serialized),
            SIPHeader(SIPHeaderName.callID, id.callID),
            SIPHeader(SIPHeaderName.cseq, cseq.serialized),
        ]
        headers += routes.map { SIPHeader(SIPHeaderName.route, $0.serialized) }
        if let contact { headers.append(SIPHeader(SIPHeaderName.contact, contact.serialized)) }
        return SIPMessage(startLine: .request(method: method, uri: requestURI), headers: headers, body: body)
    }

    /// §12.2.1.1: with no route set or a loose first router, the Request-URI is the remote target and Route the
    /// route set; with a strict first router, the Request-URI is that router and the remote target goes last.
    private func routing() -> (SIPURI, [NameAddress]) {
        guard let first = routeSet.first, !first.uri.isLooseRouter else { return (remoteTarget, routeSet) }
        var strictURI = first.uri
        strictURI.headers = nil
        strictURI.parameters.removeAll { $0.name.lowercased() == "method" }
        return (strictURI, Array(routeSet.dropFirst()) + [NameAddress(uri: remoteTarget)])
    }
}
