/// `[call] target = "sip:user@host[:port][;params]"`: the SIP URI the call button calls (RFC 3261 §19.1.1),
/// checked enough that a typo is a config problem at its line rather than a refused INVITE at the door.
/// `sips:` is refused: there is no TLS transport.
enum SIPTargetSyntax {
    static func target(_ reader: ConfigReader, _ key: String) -> String? {
        guard let text = reader.string(key) else { return nil }
        if text.lowercased().hasPrefix("sips:") {
            reader.report(key, "sips: needs TLS, which the SIP agent does not have; use sip:")
            return nil
        }
        guard isValid(text) else {
            reader.report(key, "expected a SIP URI such as \"sip:reception@pbx.example\", got \"\(text)\"")
            return nil
        }
        return text
    }

    static func isValid(_ text: String) -> Bool {
        guard text.utf8.count <= 256, text.lowercased().hasPrefix("sip:") else { return false }
        let rest = text.dropFirst(4)
        let beforeParameters = rest.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard !rest.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F || $0 == "<" || $0 == ">" || $0 == "\"" }) else {
            return false
        }
        let parts = beforeParameters.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return false }
        if parts.count == 2, parts[0].isEmpty { return false }
        return isHostPort(parts[parts.count - 1])
    }

    /// `host[:port]`: a name or IPv4 address of letters, digits, dots and dashes, or `[IPv6]`; port 1–65535.
    private static func isHostPort(_ text: Substring) -> Bool {
        var host = text
        var port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return false }
            host = text[text.startIndex...close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return false }
                port = after.dropFirst()
            }
            guard host.count > 2, host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        } else {
            let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { return false }
            host = pieces[0]
            port = pieces.count == 2 ? pieces[1] : nil
            guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }),
                  !host.hasPrefix("."), !host.hasPrefix("-")
            else { return false }
        }
        if let port {
            guard let number = Int(port), (1...65535).contains(number) else { return false }
        }
        return true
    }
}
