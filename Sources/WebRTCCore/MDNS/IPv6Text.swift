/// An IPv6 address in RFC 5952 §4 text: lowercase hex groups without leading zeros, the longest run of two
/// or more zero groups (the first of equals) as `::`.
enum IPv6Text {
    static func format(_ bytes: [UInt8]) -> String {
        guard bytes.count == 16 else { return "" }
        let groups = (0..<8).map { UInt16(bytes[$0 * 2]) << 8 | UInt16(bytes[$0 * 2 + 1]) }
        var best: Range<Int>?
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else { index += 1; continue }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index >= 2, end - index > (best?.count ?? 0) { best = index..<end }
            index = end
        }
        let hex = groups.map { String($0, radix: 16) }
        guard let best else { return hex.joined(separator: ":") }
        return hex[..<best.lowerBound].joined(separator: ":") + "::" + hex[best.upperBound...].joined(separator: ":")
    }
}
