/// Entry points of the TOML 1.0 reader used for Intercom config files. Every value and key keeps its
/// `file:line:column`, and every error says where it is.
public enum TOMLParser {
    /// Parses a whole document. `file` is only used for locations.
    public static func parse(_ text: String, file: String) throws(TOMLParseError) -> TOMLTable {
        // A Swift String is always valid UTF-8; NUL and other control characters are rejected by the
        // grammar itself wherever they appear.
        try parse(validUTF8: Array(text.utf8), file: file)
    }

    /// Parses raw file contents: rejects invalid UTF-8 and NUL bytes, skips a UTF-8 byte order mark.
    public static func parse(bytes: [UInt8], file: String) throws(TOMLParseError) -> TOMLTable {
        if let problem = TOMLUTF8Validation.firstProblem(in: bytes) {
            var scanner = TOMLScanner(bytes: bytes, startIndex: byteOrderMarkLength(bytes), file: file)
            while scanner.index < problem.offset { scanner.advance() }
            throw scanner.error(problem.message)
        }
        return try parse(validUTF8: bytes, file: file)
    }

    private static func parse(validUTF8 bytes: [UInt8], file: String) throws(TOMLParseError) -> TOMLTable {
        let scanner = TOMLScanner(bytes: bytes, startIndex: byteOrderMarkLength(bytes), file: file)
        var reader = TOMLDocumentReader(scanner: scanner)
        return try reader.read()
    }

    private static func byteOrderMarkLength(_ bytes: [UInt8]) -> Int {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }
}
