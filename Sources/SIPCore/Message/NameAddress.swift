/// `[display-name] <URI> *(;param)` or `addr-spec *(;param)` (RFC 3261 §20.10, §25.1): the value of From, To,
/// Contact, Route and Record-Route.
public struct NameAddress: Hashable, Sendable {
    /// As received: a quoted-string keeps its quotes, a token list its single spaces.
    public var displayName: String?
    public var uri: SIPURI
    /// Header parameters after the URI (`tag`, `expires`, `q`…), not URI parameters.
    public var parameters: [SIPParameter]

    public init(displayName: String? = nil, uri: SIPURI, parameters: [SIPParameter] = []) {
        self.displayName = displayName
        self.uri = uri
        self.parameters = parameters
    }

    /// The dialog tag (§19.3).
    public var tag: String? {
        get { parameters.value("tag") ?? nil }
        set {
            parameters.removeAll { $0.name.lowercased() == "tag" }
            if let newValue { parameters.append(SIPParameter("tag", newValue)) }
        }
    }

    /// Always the bracketed form: it is valid for every URI, whatever its parameters.
    public var serialized: String {
        var text = displayName.map { $0 + " " } ?? ""
        text += "<\(uri.serialized)>" + parameters.serialized
        return text
    }

    public init(parsing value: String, header: String) throws(SIPError) {
        let text = Substring(value).trimmingLWS
        if let open = try Self.openingBracket(in: text, header: header) {
            guard let close = text[open...].firstIndex(of: ">") else { throw .malformedHeader(name: header) }
            displayName = try Self.parseDisplayName(text[..<open], header: header)
            uri = try SIPURI(parsing: text[text.index(after: open)..<close])
            parameters = try Self.parseParameters(text[text.index(after: close)...], header: header)
        } else {
            // addr-spec: a URI holding ",", "?" or ";" must be bracketed (§20), so ";" starts the parameters.
            let semicolon = text.firstIndex(of: ";") ?? text.endIndex
            let spec = text[..<semicolon].trimmingLWS
            guard !spec.contains(",") && !spec.contains("?") else { throw .malformedHeader(name: header) }
            displayName = nil
            uri = try SIPURI(parsing: spec)
            parameters = try Self.parseParameters(text[semicolon...], header: header)
        }
    }

    /// The "<" that opens the URI, outside any quoted display name; throws on an unterminated quote.
    private static func openingBracket(in text: Substring, header: String) throws(SIPError) -> Substring.Index? {
        var quotes = QuoteTracker()
        for index in text.indices {
            if quotes.isOutside(text[index]), text[index] == "<" { return index }
        }
        if quotes.inQuotes { throw .malformedHeader(name: header) }
        return nil
    }

    /// display-name = *(token LWS) / quoted-string (§25.1).
    private static func parseDisplayName(_ text: Substring, header: String) throws(SIPError) -> String? {
        let name = text.trimmingLWS
        if name.isEmpty { return nil }
        if name.first == "\"" {
            guard name.count >= 2, name.last == "\"" else { throw .malformedHeader(name: header) }
            return String(name)
        }
        let words = name.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.allSatisfy({ SIPGrammar.isToken($0) }) else { throw .malformedHeader(name: header) }
        return words.joined(separator: " ")
    }

    private static func parseParameters(_ text: Substring, header: String) throws(SIPError) -> [SIPParameter] {
        let rest = text.trimmingLWS
        if rest.isEmpty { return [] }
        guard rest.first == ";" else { throw .malformedHeader(name: header) }
        return try SIPParameter.parseList(rest.dropFirst(), context: header)
    }
}
