/// Unquoted values: booleans, integers, floats, inf/nan and date-times.
extension TOMLScanner {
    /// Reads a run of bare-value characters and classifies it. The cursor must be at such a character.
    mutating func readBareValue() throws(TOMLParseError) -> TOMLValue {
        let start = location
        let startIndex = index
        skipBareValueCharacters()
        // A date and a time may be separated by one space: `1979-05-27 07:32:00`.
        if TOMLDateTimeSyntax.isFullDateShape(bytes[startIndex..<index]), current == TOMLByte.space,
            let next = peek(1), TOMLByte.isDigit(next)
        {
            advance()
            skipBareValueCharacters()
        }
        let token = Array(bytes[startIndex..<index])
        do throws(TOMLSyntaxProblem) {
            return try Self.classify(token)
        } catch {
            throw self.error(error.message, at: start)
        }
    }

    private mutating func skipBareValueCharacters() {
        while let byte = current, TOMLByte.isBareValue(byte) { advance() }
    }

    private static func classify(_ token: [UInt8]) throws(TOMLSyntaxProblem) -> TOMLValue {
        if token.elementsEqual("true".utf8) { return .boolean(true) }
        if token.elementsEqual("false".utf8) { return .boolean(false) }
        if TOMLDateTimeSyntax.looksLikeDateTime(token[...]) {
            try TOMLDateTimeSyntax.validate(token)
            return .dateTime(String(decoding: token, as: UTF8.self))
        }
        if let first = token.first, TOMLByte.isLetter(first), !token.elementsEqual("inf".utf8),
            !token.elementsEqual("nan".utf8)
        {
            let text = String(decoding: token, as: UTF8.self)
            let shown = TOMLDisplay.shortened(text)
            if text.lowercased() == "true" || text.lowercased() == "false" {
                throw TOMLSyntaxProblem(message: "invalid value \(shown) (booleans are lowercase: true or false)")
            }
            throw TOMLSyntaxProblem(message: "invalid value \(shown) (strings need quotes)")
        }
        return try TOMLNumberSyntax.parse(token)
    }
}
