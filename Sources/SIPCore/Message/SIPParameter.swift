/// A `;name[=value]` parameter (RFC 3261 §25.1 generic-param, uri-parameter). Names compare
/// case-insensitively; values are kept as received (quoted strings keep their quotes).
public struct SIPParameter: Hashable, Sendable {
    public var name: String
    public var value: String?

    public init(_ name: String, _ value: String? = nil) {
        self.name = name
        self.value = value
    }

    var serialized: String { value.map { "\(name)=\($0)" } ?? name }

    /// Parses `;a=b;c` (the text after the first `;`), with LWS allowed around `;` and `=` in headers.
    static func parseList(_ text: Substring, context: String) throws(SIPError) -> [SIPParameter] {
        var parameters: [SIPParameter] = []
        for piece in splitOutsideQuotes(text, separator: ";") {
            let pair = splitOutsideQuotes(piece, separator: "=")
            let name = pair[0].trimmingLWS
            guard SIPGrammar.isToken(name) else { throw .malformedHeader(name: context) }
            switch pair.count {
            case 1: parameters.append(SIPParameter(String(name)))
            case 2:
                let value = pair[1].trimmingLWS
                guard isParameterValue(value) else { throw .malformedHeader(name: context) }
                parameters.append(SIPParameter(String(name), String(value)))
            default: throw .malformedHeader(name: context)
            }
        }
        return parameters
    }

    /// gen-value = token / host / quoted-string (§25.1); IPv6 references add brackets and colons.
    private static func isParameterValue(_ value: Substring) -> Bool {
        if value.first == "\"" { return value.count >= 2 && value.last == "\"" }
        return !value.isEmpty
            && value.utf8.allSatisfy { SIPGrammar.isTokenByte($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }
    }
}

extension Array where Element == SIPParameter {
    /// The value of the first parameter named `name` (case-insensitive); `.some(nil)` when it has no value.
    public func value(_ name: String) -> String?? {
        guard let found = first(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
        return .some(found.value)
    }

    public func contains(named name: String) -> Bool { value(name) != nil }

    var serialized: String { map { ";" + $0.serialized }.joined() }
}
