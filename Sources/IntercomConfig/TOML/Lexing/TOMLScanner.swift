/// A cursor over valid UTF-8 bytes that knows its line and column, the shared state of every
/// `TOMLScanner` extension (trivia, strings, keys, values).
struct TOMLScanner {
    /// Arrays, inline tables and tables nested deeper than this are rejected, so hostile input cannot
    /// exhaust the stack of the recursive value reader or of the recursive `TOMLValue` operations.
    static let maximumNestingDepth = 128

    let bytes: [UInt8]
    let file: String
    private(set) var index: Int
    private(set) var line = 1
    private(set) var column = 1

    init(bytes: [UInt8], startIndex: Int, file: String) {
        self.bytes = bytes
        self.file = file
        self.index = startIndex
    }

    var isAtEnd: Bool { index >= bytes.count }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(_ offset: Int) -> UInt8? {
        let position = index + offset
        return position >= 0 && position < bytes.count ? bytes[position] : nil
    }

    var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == TOMLByte.lineFeed {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // Only the first byte of a UTF-8 sequence starts a new column.
            column += 1
        }
    }

    mutating func advance(by count: Int) {
        for _ in 0..<count { advance() }
    }

    func error(_ message: String, at location: SourceLocation? = nil) -> TOMLParseError {
        TOMLParseError(message: message, location: location ?? self.location)
    }

    /// The text between `start` and the cursor.
    func text(from start: Int) -> String {
        String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The character under the cursor, phrased for "found …" in error messages.
    func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        switch byte {
        case TOMLByte.lineFeed: return "end of line"
        case TOMLByte.carriageReturn: return peek(1) == TOMLByte.lineFeed ? "end of line" : "a carriage return"
        case TOMLByte.space: return "a space"
        case TOMLByte.tab: return "a tab"
        case TOMLByte.apostrophe: return "\"'\""
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x80...:
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            let end = min(index + length, bytes.count)
            let character = String(decoding: bytes[index..<end], as: UTF8.self)
            let scalar = character.unicodeScalars.first.map { TOMLByte.hex($0.value, digits: 4) } ?? "?"
            return "'\(character)' (U+\(scalar))"
        default: return TOMLByte.codePointName(byte)
        }
    }
}
