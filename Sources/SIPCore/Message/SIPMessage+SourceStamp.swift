/// What a server does with the top Via of a request it received (RFC 3261 §18.2.1, RFC 3581 §4): `received=`
/// when the source address differs from sent-by, `rport=<source port>` when the client asked with a bare
/// `rport`. The response then goes back to the address the request came from (`responseDestination`).
extension SIPMessage {
    public mutating func stampSource(host: String, port: UInt16) {
        guard var vias = try? vias(), var top = vias.first else { return }
        var parameters = top.parameters.filter { $0.name.lowercased() != "received" }
        if top.host != host { parameters.append(SIPParameter("received", host)) }
        if let index = parameters.firstIndex(where: { $0.name.lowercased() == "rport" }) {
            parameters[index] = SIPParameter("rport", String(port))
        }
        top.parameters = parameters
        vias[0] = top
        removeHeaders(SIPHeaderName.via)
        // One Via per line: the serialized list keeps every hop in order.
        let rest = headers
        headers = []
        for via in vias { addHeader(SIPHeaderName.via, via.serialized) }
        headers += rest
    }

    /// Where a response to this (stamped) request goes over an unreliable transport: the source port when the
    /// client asked for rport, else the port in sent-by (5060 by default), at the received (or sent-by) host.
    public func responseDestination(defaultPort: UInt16 = 5060) -> (host: String, port: UInt16)? {
        guard let top = try? topVia() else { return nil }
        return (top.received ?? top.host, top.rport ?? top.port ?? defaultPort)
    }
}
