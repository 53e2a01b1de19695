/// Reads the head of a message — start line and header lines — from bytes (RFC 3261 §7, §7.3.1, §7.5).
enum SIPHeadParser {
    /// Where the head ends: the index of its last byte plus one (before the empty line) and where the body
    /// starts (after it). Lines end in CRLF; a bare LF is tolerated. Empty lines before the start line are
    /// skipped (§7.5), so they do not end the head.
    static func findHeadEnd(_ bytes: ArraySlice<UInt8>) -> (headEnd: Int, bodyStart: Int)? {
        var lineStart = bytes.startIndex
        var seenStartLine = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\n") {
                var lineEnd = index
                if lineEnd > lineStart, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                if lineEnd == lineStart {
                    if seenStartLine { return (lineStart, index + 1) }
                } else {
                    seenStartLine = true
                }
                lineStart = index + 1
            }
            index += 1
        }
        return nil
    }

    static func parse(_ head: ArraySlice<UInt8>, limits: SIPLimits) throws(SIPError) -> (SIPStartLine, [SIPHeader]) {
        let allLines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        guard let firstIndex = allLines.firstIndex(where: { !$0.isEmpty }),
            let lastIndex = allLines.lastIndex(where: { !$0.isEmpty })
        else { throw .malformedStartLine }
        let lines = allLines[firstIndex...lastIndex]
        let startLine = try SIPStartLineParser.parse(lines[firstIndex])

        var unfolded: [[UInt8]] = []
        for line in lines.dropFirst() {
            if let byte = line.first, SIPGrammar.isWhitespace(byte) {
                // A continuation line (LWS = [*WSP CRLF] 1*WSP) is one space in the value.
                guard !unfolded.isEmpty else { throw .malformedStartLine }
                while let last = unfolded[unfolded.count - 1].last, SIPGrammar.isWhitespace(last) {
                    unfolded[unfolded.count - 1].removeLast()
                }
                unfolded[unfolded.count - 1].append(0x20)
                unfolded[unfolded.count - 1].append(contentsOf: line.drop(while: SIPGrammar.isWhitespace))
            } else {
                unfolded.append(Array(line))
                guard unfolded.count <= limits.maxHeaderCount else { throw .tooManyHeaders }
            }
            guard unfolded[unfolded.count - 1].count <= limits.maxHeaderBytes else { throw .headerTooLong }
        }
        var headers: [SIPHeader] = []
        headers.reserveCapacity(unfolded.count)
        for line in unfolded { headers.append(try parseHeader(line)) }
        return (startLine, headers)
    }

    /// `name HCOLON value`, HCOLON = *( SP / HTAB ) ":" SWS.
    private static func parseHeader(_ line: [UInt8]) throws(SIPError) -> SIPHeader {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .incompleteHeaders }
        var nameEnd = colon
        while nameEnd > 0, SIPGrammar.isWhitespace(line[nameEnd - 1]) { nameEnd -= 1 }
        let nameBytes = line[..<nameEnd]
        guard !nameBytes.isEmpty, nameBytes.allSatisfy(SIPGrammar.isTokenByte) else { throw .incompleteHeaders }
        let name = String(decoding: nameBytes, as: UTF8.self)
        guard let value = String(validating: line[(colon + 1)...], as: UTF8.self) else {
            throw .malformedHeader(name: SIPHeaderName.normalized(name))
        }
        return SIPHeader(name, String(value.trimmingLWS))
    }
}
