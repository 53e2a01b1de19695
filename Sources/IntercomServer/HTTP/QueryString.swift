/// `application/x-www-form-urlencoded` query strings: `+` is a space, `%XX` a byte. Parse clients URL-encode
/// JSON values (`where=%7B…%7D`), so every value that parses as JSON is used as JSON (parse-server).
enum QueryString {
    static func parameters(_ query: String?) -> [String: JSONValue] {
        guard let query, !query.isEmpty else { return [:] }
        var result: [String: JSONValue] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0])
            let text = parts.count > 1 ? decode(parts[1]) : ""
            guard !name.isEmpty else { continue }
            result[name] = (try? JSONCoding.decode(text)) ?? .string(text)
        }
        return result
    }

    static func decode(_ component: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = component.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case 0x2B: bytes.append(0x20)
            case 0x25:
                let high = iterator.next()
                let low = iterator.next()
                if let high, let low, let value = hex(high).flatMap({ h in hex(low).map { h << 4 | $0 } }) {
                    bytes.append(value)
                } else {
                    bytes.append(0x25)
                    if let high { bytes.append(high) }
                    if let low { bytes.append(low) }
                }
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
