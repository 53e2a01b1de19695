/// Keys: `key = simple-key / dotted-key`, `simple-key = quoted-key / unquoted-key` (TOML 1.0 "Keys").
extension TOMLScanner {
    /// Reads a possibly dotted key and the whitespace after it.
    mutating func readKey() throws(TOMLParseError) -> TOMLKey {
        var key = TOMLKey(first: try readSimpleKey(afterDot: false))
        skipWhitespace()
        while current == TOMLByte.dot {
            advance()
            skipWhitespace()
            key.append(try readSimpleKey(afterDot: true))
            skipWhitespace()
        }
        return key
    }

    private mutating func readSimpleKey(afterDot: Bool) throws(TOMLParseError) -> TOMLKey.Part {
        let start = location
        guard let byte = current else { throw missingKey(afterDot: afterDot) }
        if byte == TOMLByte.quotationMark || byte == TOMLByte.apostrophe {
            if peek(1) == byte && peek(2) == byte {
                throw error("a multi-line string cannot be used as a key")
            }
            return TOMLKey.Part(name: try readString(), location: start)
        }
        guard TOMLByte.isBareKey(byte) else { throw missingKey(afterDot: afterDot) }
        let startIndex = index
        while let next = current, TOMLByte.isBareKey(next) { advance() }
        return TOMLKey.Part(name: text(from: startIndex), location: start)
    }

    private func missingKey(afterDot: Bool) -> TOMLParseError {
        if afterDot { return error("expected a key after '.', found \(describeCurrent())") }
        if current == TOMLByte.equals { return error("missing key before '='") }
        if let byte = current, byte >= 0x80 || byte == TOMLByte.colon || byte == TOMLByte.plus {
            return error("expected a key, found \(describeCurrent()) (keys with such characters need quotes)")
        }
        return error("expected a key, found \(describeCurrent())")
    }
}
