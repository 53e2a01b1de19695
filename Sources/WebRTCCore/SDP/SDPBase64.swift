/// Base64 with the standard alphabet and `=` padding (RFC 4648 §4), as `a=crypto` inline keys use it
/// (RFC 4568 §6.1: `key-salt = 1*(base64)`). WebRTCCore stays free of Foundation, hence this small codec.
enum SDPBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index ..< min(index + 3, bytes.count)]
            let b0 = chunk[chunk.startIndex]
            let b1 = chunk.count > 1 ? chunk[chunk.startIndex + 1] : 0
            let b2 = chunk.count > 2 ? chunk[chunk.startIndex + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(chunk.count > 1 ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(chunk.count > 2 ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil for a length that is not a multiple of 4, a character outside the alphabet, padding anywhere
    /// but at the end, or non-zero bits under the padding (so every accepted text re-encodes to itself).
    static func decode(_ text: Substring) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var quad = 0
        while quad < chars.count {
            let last = quad + 4 == chars.count
            var values: [UInt8] = []
            var padding = 0
            for char in chars[quad ..< quad + 4] {
                if char == UInt8(ascii: "=") {
                    padding += 1
                    continue
                }
                guard padding == 0, let value = Self.value(of: char) else { return nil }
                values.append(value)
            }
            guard padding == 0 || (last && padding <= 2) else { return nil }
            out.append(values[0] << 2 | values[1] >> 4)
            if values.count > 2 { out.append(values[1] << 4 | values[2] >> 2) } else if values[1] & 0x0F != 0 { return nil }
            if values.count > 3 { out.append(values[2] << 6 | values[3]) } else if values.count == 3, values[2] & 0x03 != 0 {
                return nil
            }
            quad += 4
        }
        return out
    }

    private static func value(of char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A") ... UInt8(ascii: "Z"): char - UInt8(ascii: "A")
        case UInt8(ascii: "a") ... UInt8(ascii: "z"): char - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): char - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
