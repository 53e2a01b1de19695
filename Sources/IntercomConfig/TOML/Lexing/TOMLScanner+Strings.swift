/// The four TOML string forms: basic `"…"`, multi-line basic `"""…"""`, literal `'…'` and
/// multi-line literal `'''…'''` (TOML 1.0 "String").
extension TOMLScanner {
    /// Reads any string form; the cursor must be at `"` or `'`.
    mutating func readString() throws(TOMLParseError) -> String {
        let delimiter = current
        let isMultiline = peek(1) == delimiter && peek(2) == delimiter
        switch (delimiter == TOMLByte.quotationMark, isMultiline) {
        case (true, false): return try readBasicString()
        case (true, true): return try readMultilineString(delimiter: TOMLByte.quotationMark)
        case (false, false): return try readLiteralString()
        case (false, true): return try readMultilineString(delimiter: TOMLByte.apostrophe)
        }
    }

    /// `"…"`: escapes allowed, no line breaks.
    mutating func readBasicString() throws(TOMLParseError) -> String {
        let start = location
        advance()
        var content: [UInt8] = []
        while let byte = current {
            switch byte {
            case TOMLByte.quotationMark:
                advance()
                return String(decoding: content, as: UTF8.self)
            case TOMLByte.backslash:
                if peek(1) == nil { throw error("unterminated string", at: start) }
                try readEscape(into: &content)
            case TOMLByte.carriageReturn where peek(1) != TOMLByte.lineFeed:
                throw loneCarriageReturn()
            case TOMLByte.lineFeed, TOMLByte.carriageReturn:
                throw error("unterminated string (use \"\"\" for a string that spans lines)", at: start)
            default:
                try appendStringByte(byte, to: &content)
            }
        }
        throw error("unterminated string", at: start)
    }

    /// `'…'`: no escapes, no line breaks.
    mutating func readLiteralString() throws(TOMLParseError) -> String {
        let start = location
        advance()
        var content: [UInt8] = []
        while let byte = current {
            switch byte {
            case TOMLByte.apostrophe:
                advance()
                return String(decoding: content, as: UTF8.self)
            case TOMLByte.carriageReturn where peek(1) != TOMLByte.lineFeed:
                throw loneCarriageReturn()
            case TOMLByte.lineFeed, TOMLByte.carriageReturn:
                throw error("unterminated string (use ''' for a string that spans lines)", at: start)
            default:
                try appendStringByte(byte, to: &content)
            }
        }
        throw error("unterminated string", at: start)
    }

    /// `"""…"""` or `'''…'''`. A line break right after the opening delimiter is dropped, CRLF becomes
    /// LF, and up to two delimiter characters may directly precede the closing delimiter.
    mutating func readMultilineString(delimiter: UInt8) throws(TOMLParseError) -> String {
        let start = location
        let isBasic = delimiter == TOMLByte.quotationMark
        advance(by: 3)
        _ = try consumeNewline()
        var content: [UInt8] = []
        while let byte = current {
            switch byte {
            case delimiter:
                var run = 0
                while peek(run) == delimiter { run += 1 }
                if run < 3 {
                    content.append(contentsOf: repeatElement(delimiter, count: run))
                    advance(by: run)
                    continue
                }
                if run > 5 {
                    throw error("too many quotes in a row in a multi-line string")
                }
                content.append(contentsOf: repeatElement(delimiter, count: run - 3))
                advance(by: run)
                return String(decoding: content, as: UTF8.self)
            case TOMLByte.backslash where isBasic:
                if peek(1) == nil { throw error("unterminated multi-line string", at: start) }
                if try !skipLineEndingBackslash() {
                    try readEscape(into: &content)
                }
            case TOMLByte.lineFeed, TOMLByte.carriageReturn:
                _ = try consumeNewline()
                content.append(TOMLByte.lineFeed)
            default:
                try appendStringByte(byte, to: &content)
            }
        }
        throw error("unterminated multi-line string", at: start)
    }

    /// A `\` followed by optional whitespace and a line break trims all whitespace and line breaks up to
    /// the next other character. Returns false, consuming nothing, when the backslash is an escape.
    private mutating func skipLineEndingBackslash() throws(TOMLParseError) -> Bool {
        var offset = 1
        while peek(offset) == TOMLByte.space || peek(offset) == TOMLByte.tab { offset += 1 }
        guard peek(offset) == TOMLByte.lineFeed || peek(offset) == TOMLByte.carriageReturn else { return false }
        advance(by: offset)
        while true {
            skipWhitespace()
            if try !consumeNewline() { return true }
        }
    }

    /// Appends a plain content byte, rejecting control characters other than tab.
    private mutating func appendStringByte(_ byte: UInt8, to content: inout [UInt8]) throws(TOMLParseError) {
        if TOMLByte.isForbiddenControl(byte) {
            throw error("control character \(TOMLByte.codePointName(byte)) must be escaped in a string")
        }
        content.append(byte)
        advance()
    }

    /// `escaped = escape ( %x22 / %x5C / %x62 / %x66 / %x6E / %x72 / %x74 / %x75 4HEXDIG / %x55 8HEXDIG )`
    private mutating func readEscape(into content: inout [UInt8]) throws(TOMLParseError) {
        let start = location
        advance()
        guard let letter = current else { throw error("unterminated string", at: start) }
        let simple: UInt8? =
            switch letter {
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "t"): 0x09
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "r"): 0x0D
            case TOMLByte.quotationMark: TOMLByte.quotationMark
            case TOMLByte.backslash: TOMLByte.backslash
            default: nil
            }
        if let simple {
            content.append(simple)
            advance()
            return
        }
        switch letter {
        case UInt8(ascii: "u"): try readUnicodeEscape(digits: 4, start: start, into: &content)
        case UInt8(ascii: "U"): try readUnicodeEscape(digits: 8, start: start, into: &content)
        case 0x21...0x7E: throw error("invalid escape \\\(Character(Unicode.Scalar(letter))) in string", at: start)
        default: throw error("invalid escape: '\\' followed by \(describeCurrent()) in string", at: start)
        }
    }

    private mutating func readUnicodeEscape(
        digits: Int,
        start: SourceLocation,
        into content: inout [UInt8]
    ) throws(TOMLParseError) {
        let letter = digits == 4 ? "u" : "U"
        advance()
        var value: UInt32 = 0
        var text = ""
        for _ in 0..<digits {
            guard let byte = current, let digit = Self.hexDigitValue(byte) else {
                throw error("escape \\\(letter) needs exactly \(digits) hex digits", at: start)
            }
            value = value << 4 | digit
            text.append(Character(Unicode.Scalar(byte)))
            advance()
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("escape \\\(letter)\(text) is not a Unicode scalar value", at: start)
        }
        content.append(contentsOf: String(scalar).utf8)
    }

    static func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }
}
