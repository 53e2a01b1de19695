/// `auth-param *(COMMA auth-param)` with `auth-param = token "=" (token / quoted-string)` (RFC 7235 §2.1,
/// RFC 3261 §25.1 digest-cln): names lower-cased, quoted values unquoted.
enum AuthParameters {
    static func parse(_ text: Substring) throws(SIPError) -> [String: String] {
        var parameters: [String: String] = [:]
        for piece in splitOutsideQuotes(text, separator: ",") {
            let item = piece.trimmingLWS
            if item.isEmpty { continue }
            guard let equals = item.firstIndex(of: "=") else { throw .malformedChallenge }
            let name = item[..<equals].trimmingLWS.lowercased()
            let rawValue = item[item.index(after: equals)...].trimmingLWS
            guard SIPGrammar.isToken(name) else { throw .malformedChallenge }
            parameters[name] = try unquote(rawValue)
        }
        return parameters
    }

    /// A quoted-string without its quotes and quoted-pair backslashes, or a token as is.
    static func unquote(_ value: Substring) throws(SIPError) -> String {
        guard value.first == "\"" else {
            guard SIPGrammar.isToken(value) else { throw .malformedChallenge }
            return String(value)
        }
        guard value.count >= 2, value.last == "\"" else { throw .malformedChallenge }
        var out = ""
        var escaped = false
        for character in value.dropFirst().dropLast() {
            if escaped {
                out.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// A quoted-string for `text`, escaping `"` and `\`.
    static func quote(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }
}
