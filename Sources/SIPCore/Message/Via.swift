/// One Via entry (RFC 3261 §20.42, §18.2.1): `SIP/2.0/<transport> <sent-by> *(;param)`.
public struct Via: Hashable, Sendable {
    /// Upper case: UDP, TCP, TLS, SCTP, WS…
    public var transport: String
    public var host: String
    public var port: UInt16?
    public var parameters: [SIPParameter]

    /// The RFC 3261 branch prefix (§8.1.1.7): a branch starting with it is a transaction id (§17.2.3).
    public static let magicCookie = "z9hG4bK"

    public init(transport: String, host: String, port: UInt16? = nil, parameters: [SIPParameter] = []) {
        self.transport = transport
        self.host = host
        self.port = port
        self.parameters = parameters
    }

    public var branch: String? { parameters.value("branch") ?? nil }

    /// `received=` (§18.2.1): the source address the next hop saw.
    public var received: String? { parameters.value("received") ?? nil }

    /// `rport=<port>` filled by the server (RFC 3581 §4); nil when absent or still valueless.
    public var rport: UInt16? {
        guard let value = parameters.value("rport") ?? nil else { return nil }
        return parseDecimal(Substring(value), maxDigits: 5)
    }

    /// host[:port] as the transaction-matching rules compare it (§17.2.3).
    public var sentBy: String { port.map { "\(host):\($0)" } ?? host }

    public var serialized: String { "SIP/2.0/\(transport) \(sentBy)" + parameters.serialized }

    public init(parsing value: String) throws(SIPError) {
        let name = SIPHeaderName.via
        // sent-protocol = "SIP" SLASH "2.0" SLASH transport, with LWS allowed around each slash (§25.1).
        let slashes = value.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard slashes.count == 3, slashes[0].trimmingLWS.uppercased() == "SIP", slashes[1].trimmingLWS == "2.0"
        else { throw .malformedHeader(name: name) }
        let rest = slashes[2].trimmingLWS
        guard let space = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            throw .malformedHeader(name: name)
        }
        let transport = rest[..<space]
        guard SIPGrammar.isToken(transport) else { throw .malformedHeader(name: name) }
        let afterTransport = rest[space...].trimmingLWS
        let pieces = splitOutsideQuotes(afterTransport, separator: ";")
        let sentBy = pieces[0].trimmingLWS
        do {
            (host, port) = try SIPURI.parseHostPort(sentBy)
        } catch {
            throw .malformedHeader(name: name)
        }
        self.transport = transport.uppercased()
        if pieces.count > 1 {
            let paramText = afterTransport[afterTransport.index(after: pieces[0].endIndex)...]
            parameters = try SIPParameter.parseList(Substring(paramText), context: name)
        } else {
            parameters = []
        }
        if let branch, !SIPGrammar.isToken(branch) { throw .malformedHeader(name: name) }
    }
}
