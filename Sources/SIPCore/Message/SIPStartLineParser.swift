/// Request-Line and Status-Line (RFC 3261 §7.1, §7.2, §25.1): elements separated by exactly one SP, so
/// RFC 4475's lwsstart, trws and lwsruri are refused.
enum SIPStartLineParser {
    static func parse(_ line: ArraySlice<UInt8>) throws(SIPError) -> SIPStartLine {
        guard let text = String(validating: line, as: UTF8.self) else { throw .malformedStartLine }
        if text.prefix(4).uppercased() == "SIP/" { return try parseStatusLine(Substring(text)) }
        return try parseRequestLine(Substring(text))
    }

    private static func parseRequestLine(_ text: Substring) throws(SIPError) -> SIPStartLine {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, SIPGrammar.isToken(parts[0]) else { throw .malformedStartLine }
        try checkVersion(parts[2])
        let uriText = parts[1]
        guard !uriText.isEmpty else { throw .malformedStartLine }
        let uri = try SIPURI(parsing: uriText)
        guard uri.headers == nil else { throw .headersInRequestURI }
        return .request(method: SIPMethod(String(parts[0])), uri: uri)
    }

    /// `SIP/2.0 SP 3DIGIT SP Reason-Phrase`; a missing final SP of an empty reason is tolerated.
    private static func parseStatusLine(_ text: Substring) throws(SIPError) -> SIPStartLine {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2 else { throw .malformedStartLine }
        try checkVersion(parts[0])
        guard parts[1].utf8.count == 3, let status: Int = parseDecimal(parts[1], maxDigits: 3), (100...699).contains(status)
        else { throw .malformedStatusCode }
        return .response(status: status, reason: parts.count == 3 ? String(parts[2].trimmingLWS) : "")
    }

    private static func checkVersion(_ version: Substring) throws(SIPError) {
        guard version.uppercased() == SIPStartLine.version else {
            guard version.prefix(4).uppercased() == "SIP/" else { throw .malformedStartLine }
            throw .unsupportedVersion(String(version.prefix(16)))
        }
    }
}
