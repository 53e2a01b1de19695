/// Values (TOML 1.0 `val`): strings, bare scalars, arrays and inline tables.
///
/// Arrays and inline tables recurse; `depth` is the nesting level the value would have as a container
/// and is checked against `maximumNestingDepth` before each level, so the recursion is bounded.
extension TOMLScanner {
    mutating func readValue(depth: Int) throws(TOMLParseError) -> TOMLNode {
        let start = location
        guard let byte = current else { throw error("expected a value, found end of file") }
        let value: TOMLValue
        switch byte {
        case TOMLByte.quotationMark, TOMLByte.apostrophe:
            value = .string(try readString())
        case TOMLByte.openBracket:
            value = .array(try readArray(depth: depth))
        case TOMLByte.openBrace:
            value = .table(try readInlineTable(depth: depth))
        case _ where TOMLByte.isBareValue(byte):
            value = try readBareValue()
        default:
            throw error("expected a value, found \(describeCurrent())")
        }
        return TOMLNode(value: value, location: start)
    }

    /// `[ v, v, ]`: any value types, trailing comma, newlines and comments allowed.
    private mutating func readArray(depth: Int) throws(TOMLParseError) -> [TOMLNode] {
        let start = location
        try checkNesting(depth)
        advance()
        var elements: [TOMLNode] = []
        while true {
            try skipBlankSpace()
            if current == TOMLByte.closeBracket {
                advance()
                return elements
            }
            if isAtEnd { throw error("unterminated array", at: start) }
            elements.append(try readValue(depth: depth + 1))
            try skipBlankSpace()
            switch current {
            case TOMLByte.comma:
                advance()
            case TOMLByte.closeBracket:
                advance()
                return elements
            case nil:
                throw error("unterminated array", at: start)
            default:
                throw error("expected ',' or ']' in array, found \(describeCurrent())")
            }
        }
    }

    /// `{ k = v, k = v }`: on one line, no trailing comma; complete once closed.
    private mutating func readInlineTable(depth: Int) throws(TOMLParseError) -> TOMLTable {
        let start = location
        try checkNesting(depth)
        advance()
        let table = TOMLTableBuilder(origin: .inline, depth: depth, nodeLocation: start, headerLocation: start)
        skipWhitespace()
        if current == TOMLByte.closeBrace {
            advance()
            return table.freeze()
        }
        while true {
            try rejectLineBreakInInlineTable(start: start)
            try readKeyValue(into: table)
            skipWhitespace()
            switch current {
            case TOMLByte.comma:
                advance()
                skipWhitespace()
                if current == TOMLByte.closeBrace {
                    throw error("trailing comma is not allowed in an inline table")
                }
            case TOMLByte.closeBrace:
                advance()
                return table.freeze()
            default:
                try rejectLineBreakInInlineTable(start: start)
                throw error("expected ',' or '}' in inline table, found \(describeCurrent())")
            }
        }
    }

    private func rejectLineBreakInInlineTable(start: SourceLocation) throws(TOMLParseError) {
        if isAtEnd { throw error("unterminated inline table", at: start) }
        if isAtNewline || current == TOMLByte.hash {
            throw error("inline table must close on the line it opens ('}' expected, found \(describeCurrent()))")
        }
    }

    private func checkNesting(_ depth: Int) throws(TOMLParseError) {
        guard depth <= Self.maximumNestingDepth else {
            throw error("arrays and inline tables are nested too deeply (limit \(Self.maximumNestingDepth))")
        }
    }
}
