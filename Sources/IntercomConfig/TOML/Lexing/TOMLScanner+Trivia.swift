/// Whitespace, comments and newlines (TOML 1.0: `ws`, `comment`, `newline`, `ws-comment-newline`).
extension TOMLScanner {
    mutating func skipWhitespace() {
        while current == TOMLByte.space || current == TOMLByte.tab { advance() }
    }

    var isAtNewline: Bool { current == TOMLByte.lineFeed || current == TOMLByte.carriageReturn }

    /// Consumes LF or CRLF. Returns false when not at a line end; a CR without LF is an error.
    mutating func consumeNewline() throws(TOMLParseError) -> Bool {
        if current == TOMLByte.lineFeed {
            advance()
            return true
        }
        guard current == TOMLByte.carriageReturn else { return false }
        guard peek(1) == TOMLByte.lineFeed else { throw loneCarriageReturn() }
        advance(by: 2)
        return true
    }

    func loneCarriageReturn() -> TOMLParseError {
        error("carriage return must be followed by a line feed")
    }

    /// Consumes `# …` up to, not including, the line end. Does nothing when not at `#`.
    mutating func skipComment() throws(TOMLParseError) {
        guard current == TOMLByte.hash else { return }
        advance()
        while let byte = current {
            if byte == TOMLByte.lineFeed { return }
            if byte == TOMLByte.carriageReturn {
                if peek(1) == TOMLByte.lineFeed { return }
                throw loneCarriageReturn()
            }
            if TOMLByte.isForbiddenControl(byte) {
                throw error("control character \(TOMLByte.codePointName(byte)) is not allowed in a comment")
            }
            advance()
        }
    }

    /// Skips whitespace, comments and newlines, as allowed between array elements.
    mutating func skipBlankSpace() throws(TOMLParseError) {
        while true {
            skipWhitespace()
            try skipComment()
            if try !consumeNewline() { return }
        }
    }

    /// After a key/value pair or a header only whitespace, a comment, then a newline or the end may follow.
    mutating func expectLineEnd(after what: String) throws(TOMLParseError) {
        skipWhitespace()
        try skipComment()
        if isAtEnd { return }
        if try consumeNewline() { return }
        throw error("expected end of line after \(what), found \(describeCurrent())")
    }
}
