/// `keyval = key keyval-sep val`, shared by sections and inline tables.
extension TOMLScanner {
    /// Reads `key = value` and stores it in `table`; the cursor must be at the key.
    mutating func readKeyValue(into table: TOMLTableBuilder) throws(TOMLParseError) {
        let key = try readKey()
        guard current == TOMLByte.equals else {
            throw error("expected '=' after key \"\(key.display)\", found \(describeCurrent())")
        }
        advance()
        skipWhitespace()
        switch current {
        case nil, TOMLByte.lineFeed, TOMLByte.carriageReturn, TOMLByte.hash, TOMLByte.comma, TOMLByte.closeBrace:
            throw error("missing value for key \"\(key.display)\"")
        default:
            break
        }
        var node = try readValue(depth: table.depth + key.parts.count)
        node.keyLocation = key.last.location
        try table.assign(key, node)
    }
}
