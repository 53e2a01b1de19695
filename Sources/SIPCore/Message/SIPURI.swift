/// A `sip:` or `sips:` URI (RFC 3261 §19.1). Parts are kept as received (still %-escaped) so a URI
/// serializes back to the same text; `tel:` and other schemes are refused with `.unsupportedURIScheme`.
public struct SIPURI: Hashable, Sendable, CustomStringConvertible {
    public var secure: Bool
    public var user: String?
    public var password: String?
    public var host: String
    public var port: UInt16?
    public var parameters: [SIPParameter]
    /// `?name=value&…` (§19.1.1), not allowed in a Request-URI.
    public var headers: String?

    public init(
        secure: Bool = false, user: String? = nil, password: String? = nil, host: String, port: UInt16? = nil,
        parameters: [SIPParameter] = [], headers: String? = nil
    ) {
        self.secure = secure
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.parameters = parameters
        self.headers = headers
    }

    public var description: String { serialized }

    public var serialized: String {
        var text = secure ? "sips:" : "sip:"
        if let user {
            text += user
            if let password { text += ":" + password }
            text += "@"
        }
        text += host
        if let port { text += ":\(port)" }
        text += parameters.serialized
        if let headers { text += "?" + headers }
        return text
    }

    /// `transport=` in lower case, if present.
    public var transport: String? { parameters.value("transport")??.lowercased() }

    /// `;lr` marks a loose router (§19.1.1); a route set without it is strict routing (§12.2.1.1).
    public var isLooseRouter: Bool { parameters.contains(named: "lr") }

    public init(parsing text: Substring) throws(SIPError) {
        guard let colon = text.firstIndex(of: ":") else { throw .malformedURI }
        let scheme = text[..<colon].lowercased()
        switch scheme {
        case "sip": secure = false
        case "sips": secure = true
        default:
            guard SIPGrammar.isToken(scheme) else { throw .malformedURI }
            throw .unsupportedURIScheme(scheme)
        }
        var rest = text[text.index(after: colon)...]
        guard !rest.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") })
        else { throw .malformedURI }
        // The host, parameters and headers never hold a raw "@" (§25.1), so the last one ends the userinfo,
        // whose user part may itself hold "?" and ";".
        user = nil
        password = nil
        if let at = rest.lastIndex(of: "@") {
            let userinfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let passwordColon = userinfo.firstIndex(of: ":") {
                user = String(userinfo[..<passwordColon])
                password = String(userinfo[userinfo.index(after: passwordColon)...])
            } else {
                user = String(userinfo)
            }
            guard user?.isEmpty == false else { throw .malformedURI }
        }
        headers = nil
        if let question = rest.firstIndex(of: "?") {
            headers = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        var hostport = rest
        parameters = []
        if let semicolon = rest.firstIndex(of: ";") {
            hostport = rest[..<semicolon]
            parameters = try SIPParameter.parseList(rest[rest.index(after: semicolon)...], context: "URI")
        }
        (host, port) = try Self.parseHostPort(hostport)
    }

    public init(_ text: String) throws(SIPError) { try self.init(parsing: Substring(text)) }

    /// host [":" port], the host a hostname, IPv4 address or bracketed IPv6 reference (§25.1).
    static func parseHostPort(_ text: Substring) throws(SIPError) -> (String, UInt16?) {
        var host = text
        var portText: Substring?
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { throw .malformedURI }
            host = text[...close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw .malformedURI }
                portText = after.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        let hostBytes = host.utf8
        guard !host.isEmpty,
            host.first == "[" || hostBytes.allSatisfy({ SIPGrammar.isTokenByte($0) && $0 != UInt8(ascii: "%") })
        else { throw .malformedURI }
        var port: UInt16?
        if let portText {
            guard let parsed: UInt16 = parseDecimal(portText, maxDigits: 5) else { throw .malformedURI }
            port = parsed
        }
        return (String(host), port)
    }
}
