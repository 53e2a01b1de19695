/// Compact JSON text of a `JSONValue`, byte for byte what `JSONEncoder` with `[.sortedKeys,
/// .withoutEscapingSlashes]` writes (keys in code-point order; `"`, `\` and control characters escaped,
/// everything else as UTF-8; a number as `Double.description` without a trailing `.0`), without Codable's
/// boxing: every REST reply, LiveQuery event and stored row body goes through here, and the Codable path
/// cost more than the query itself for a 100-row `$nearSphere` answer. A non-finite number, which no
/// parsed JSON holds, is written as `null`.
struct JSONValueWriter {
    private(set) var bytes: [UInt8] = []

    static func write(_ value: JSONValue) -> [UInt8] {
        var writer = JSONValueWriter()
        writer.bytes.reserveCapacity(256)
        writer.append(value)
        return writer.bytes
    }

    private mutating func append(_ value: JSONValue) {
        switch value {
        case .null: bytes += "null".utf8
        case .bool(let flag): bytes += (flag ? "true" : "false").utf8
        case .number(let number): appendNumber(number)
        case .string(let text): appendString(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                append(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (offset, key) in members.keys.sorted().enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(key)
                bytes.append(UInt8(ascii: ":"))
                append(members[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func appendNumber(_ number: Double) {
        guard number.isFinite else { bytes += "null".utf8; return }
        let text = number.description
        bytes += (text.hasSuffix(".0") ? text.dropLast(2) : Substring(text)).utf8
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case 0x0A: bytes += #"\n"#.utf8
            case 0x0D: bytes += #"\r"#.utf8
            case 0x09: bytes += #"\t"#.utf8
            case 0x08: bytes += #"\b"#.utf8
            case 0x0C: bytes += #"\f"#.utf8
            case 0..<0x20:
                bytes += #"\u00"#.utf8
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
