/// Character classes of RFC 3261 §25.1 used by every parser in this target.
enum SIPGrammar {
    /// `token` characters: alphanum / "-" / "." / "!" / "%" / "*" / "_" / "+" / "`" / "'" / "~".
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "%"), UInt8(ascii: "*"),
            UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "`"), UInt8(ascii: "'"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    static func isToken<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Control characters other than HTAB never appear in a header line (TEXT-UTF8 and LWS exclude them).
    static func isForbiddenControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }
}

extension StringProtocol {
    /// Without leading and trailing SP/HTAB (and the CR/LF that unfolding left).
    var trimmingLWS: Substring {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return Substring(text)
    }
}

/// Whether each character of a header value stands inside a quoted-string (RFC 3261 §25.1: `"` opens and
/// closes one, `\` inside escapes the next character). Fed one character at a time.
struct QuoteTracker {
    private(set) var inQuotes = false
    private var escaped = false

    /// Feeds the next character; true when it stands outside every quoted-string and is not a quote itself.
    mutating func isOutside(_ character: Character) -> Bool {
        if escaped {
            escaped = false
            return false
        }
        if inQuotes {
            if character == "\\" { escaped = true } else if character == "\"" { inQuotes = false }
            return false
        }
        if character == "\"" {
            inQuotes = true
            return false
        }
        return true
    }
}

/// Splits a header value at `separator` outside double quotes (with `\` escapes) and angle brackets, the way a
/// comma-separated header list (RFC 3261 §7.3.1) or a parameter list is cut.
func splitOutsideQuotes(_ text: Substring, separator: Character) -> [Substring] {
    var parts: [Substring] = []
    var quotes = QuoteTracker()
    var inBrackets = false
    var start = text.startIndex
    var index = text.startIndex
    while index < text.endIndex {
        let character = text[index]
        if quotes.isOutside(character) {
            if character == "<" {
                inBrackets = true
            } else if character == ">" {
                inBrackets = false
            } else if character == separator, !inBrackets {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        index = text.index(after: index)
    }
    parts.append(text[start..<text.endIndex])
    return parts
}

/// Parses an unsigned decimal of at most `maxDigits` digits that fits `T`; nil for anything else.
func parseDecimal<T: FixedWidthInteger>(_ text: Substring, maxDigits: Int = 10) -> T? {
    guard !text.isEmpty, text.utf8.count <= maxDigits,
        text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return T(text)
}
