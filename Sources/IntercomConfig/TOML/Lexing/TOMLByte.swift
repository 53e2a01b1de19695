/// The ASCII bytes and byte classes the TOML 1.0 ABNF names.
enum TOMLByte {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quotationMark = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let hash = UInt8(ascii: "#")
    static let equals = UInt8(ascii: "=")
    static let dot = UInt8(ascii: ".")
    static let comma = UInt8(ascii: ",")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let plus = UInt8(ascii: "+")
    static let minus = UInt8(ascii: "-")
    static let underscore = UInt8(ascii: "_")
    static let colon = UInt8(ascii: ":")

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// `unquoted-key = 1*( ALPHA / DIGIT / %x2D / %x5F )`
    static func isBareKey(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == minus || byte == underscore
    }

    /// Bytes that can appear in an unquoted value: booleans, numbers, inf/nan and date-times.
    static func isBareValue(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == minus || byte == underscore || byte == plus
            || byte == dot || byte == colon
    }

    /// Control characters TOML forbids in strings and comments: U+0000–U+0008, U+000A–U+001F, U+007F.
    /// Tab is allowed; line feeds are handled by the callers because their meaning depends on context.
    static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != tab) || byte == 0x7F
    }

    /// `U+000D`-style name for a byte that cannot be shown as itself.
    static func codePointName(_ byte: UInt8) -> String {
        "U+" + hex(UInt32(byte), digits: 4)
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
