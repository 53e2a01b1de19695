/// Reads a whole document, `toml = expression *( newline expression )` (TOML 1.0 ABNF): blank lines,
/// comments, `[table]` / `[[array]]` headers and key/value pairs, one per line.
struct TOMLDocumentReader {
    private var scanner: TOMLScanner
    private let root: TOMLTableBuilder
    /// The table the latest header selected; key/value pairs go here.
    private var section: TOMLTableBuilder

    init(scanner: TOMLScanner) {
        self.scanner = scanner
        root = TOMLTableBuilder(origin: .root, depth: 0, nodeLocation: scanner.location)
        section = root
    }

    mutating func read() throws(TOMLParseError) -> TOMLTable {
        while true {
            scanner.skipWhitespace()
            switch scanner.current {
            case nil:
                return root.freeze()
            case TOMLByte.hash:
                try scanner.expectLineEnd(after: "comment")
            case TOMLByte.lineFeed, TOMLByte.carriageReturn:
                _ = try scanner.consumeNewline()
            case TOMLByte.openBracket:
                try readHeader()
                try scanner.expectLineEnd(after: "table header")
            default:
                try scanner.readKeyValue(into: section)
                try scanner.expectLineEnd(after: "value")
            }
        }
    }

    private mutating func readHeader() throws(TOMLParseError) {
        let start = scanner.location
        scanner.advance()
        let isArrayOfTables = scanner.current == TOMLByte.openBracket
        if isArrayOfTables { scanner.advance() }
        scanner.skipWhitespace()
        let key = try scanner.readKey()
        if isArrayOfTables {
            guard scanner.current == TOMLByte.closeBracket, scanner.peek(1) == TOMLByte.closeBracket else {
                // Point past a lone `]` so the message names what is missing, not the bracket itself.
                if scanner.current == TOMLByte.closeBracket { scanner.advance() }
                throw scanner.error("expected ']]' after [[\(key.display), found \(scanner.describeCurrent())")
            }
            scanner.advance(by: 2)
            section = try root.appendArrayTable(key, header: start)
        } else {
            guard scanner.current == TOMLByte.closeBracket else {
                throw scanner.error("expected ']' after [\(key.display), found \(scanner.describeCurrent())")
            }
            scanner.advance()
            section = try root.defineTable(key, header: start)
        }
    }
}
