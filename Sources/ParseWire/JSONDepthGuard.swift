/// Rejects JSON nested deeper than a limit before Foundation's recursive decoder sees it: a body of 100 000
/// `[` overflows the stack inside `JSONDecoder` (reliability matrix §(c) 9, "deep nesting").
/// Scans bytes once, skipping string contents; it does not validate the JSON otherwise.
enum JSONDepthGuard {
    static let defaultMaxDepth = 64

    static func check(_ bytes: some Sequence<UInt8>, maxDepth: Int = defaultMaxDepth) throws(ParseWireError) {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                guard depth <= maxDepth else { throw .notJSON("nesting deeper than \(maxDepth)") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }
}
