/// Integers and floats (TOML 1.0 "Integer" and "Float"), from the raw token text.
enum TOMLNumberSyntax {
    static func parse(_ token: [UInt8]) throws(TOMLSyntaxProblem) -> TOMLValue {
        let text = String(decoding: token, as: UTF8.self)
        let shown = TOMLDisplay.shortened(text)
        var start = 0
        var isNegative = false
        if let first = token.first, first == TOMLByte.plus || first == TOMLByte.minus {
            isNegative = first == TOMLByte.minus
            start = 1
        }
        let body = token[start...]
        if body.elementsEqual("inf".utf8) { return .float(isNegative ? -Double.infinity : Double.infinity) }
        if body.elementsEqual("nan".utf8) { return .float(isNegative ? -Double.nan : Double.nan) }

        if body.count >= 2, body.first == UInt8(ascii: "0"), let radix = radix(of: body[start + 1]) {
            if start == 1 {
                throw TOMLSyntaxProblem(message: "invalid number \(shown) (no sign allowed before 0\(radix.letter))")
            }
            return .integer(try parseRadixInteger(token, from: 2, radix: radix, shown: shown))
        }
        return try parseDecimal(token, from: start, isNegative: isNegative, shown: shown)
    }

    private struct Radix {
        var letter: String
        var base: UInt64
    }

    private static func radix(of byte: UInt8) -> Radix? {
        switch byte {
        case UInt8(ascii: "x"): Radix(letter: "x", base: 16)
        case UInt8(ascii: "o"): Radix(letter: "o", base: 8)
        case UInt8(ascii: "b"): Radix(letter: "b", base: 2)
        default: nil
        }
    }

    private static func digitValue(_ byte: UInt8, base: UInt64) -> UInt64? {
        guard let value = TOMLScanner.hexDigitValue(byte).map(UInt64.init), value < base else { return nil }
        return value
    }

    /// Skips `DIGIT *( DIGIT / "_" DIGIT )` starting at `start` and returns the index after it.
    private static func endOfDigits(
        _ token: [UInt8],
        from start: Int,
        base: UInt64,
        shown: String
    ) throws(TOMLSyntaxProblem) -> Int {
        guard start < token.count, digitValue(token[start], base: base) != nil else {
            throw TOMLSyntaxProblem(message: "invalid number \(shown)")
        }
        var index = start + 1
        while index < token.count {
            if digitValue(token[index], base: base) != nil {
                index += 1
            } else if token[index] == TOMLByte.underscore {
                guard index + 1 < token.count, digitValue(token[index + 1], base: base) != nil else {
                    throw TOMLSyntaxProblem(message: "invalid number \(shown) (an underscore must sit between digits)")
                }
                index += 2
            } else {
                break
            }
        }
        return index
    }

    private static func parseRadixInteger(
        _ token: [UInt8],
        from start: Int,
        radix: Radix,
        shown: String
    ) throws(TOMLSyntaxProblem) -> Int64 {
        let end = try endOfDigits(token, from: start, base: radix.base, shown: shown)
        guard end == token.count else { throw TOMLSyntaxProblem(message: "invalid number \(shown)") }
        let magnitude = try accumulate(token[start..<end], base: radix.base, limit: UInt64(Int64.max), shown: shown)
        return Int64(magnitude)
    }

    private static func parseDecimal(
        _ token: [UInt8],
        from start: Int,
        isNegative: Bool,
        shown: String
    ) throws(TOMLSyntaxProblem) -> TOMLValue {
        let integerEnd = try endOfDigits(token, from: start, base: 10, shown: shown)
        if token[start] == UInt8(ascii: "0") && integerEnd - start > 1 {
            throw TOMLSyntaxProblem(message: "invalid number \(shown) (leading zeros are not allowed)")
        }
        var index = integerEnd
        var isFloat = false
        if index < token.count && token[index] == TOMLByte.dot {
            isFloat = true
            index = try endOfDigits(token, from: index + 1, base: 10, shown: shown)
        }
        if index < token.count && (token[index] | 0x20) == UInt8(ascii: "e") {
            isFloat = true
            index += 1
            if index < token.count && (token[index] == TOMLByte.plus || token[index] == TOMLByte.minus) {
                index += 1
            }
            index = try endOfDigits(token, from: index, base: 10, shown: shown)
        }
        guard index == token.count else { throw TOMLSyntaxProblem(message: "invalid number \(shown)") }

        if isFloat {
            let digits = String(decoding: token.lazy.filter { $0 != TOMLByte.underscore }, as: UTF8.self)
            guard let value = Double(digits), value.isFinite else {
                // Literals like 1e309 round to infinity: in a config file that is a mistake, not intent.
                throw TOMLSyntaxProblem(message: "float \(shown) is out of range")
            }
            return .float(value)
        }
        let limit = isNegative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        let magnitude = try accumulate(token[start..<integerEnd], base: 10, limit: limit, shown: shown)
        if isNegative {
            return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        return .integer(Int64(magnitude))
    }

    /// The value of already validated digits and underscores, or an error above `limit`.
    private static func accumulate(
        _ digits: ArraySlice<UInt8>,
        base: UInt64,
        limit: UInt64,
        shown: String
    ) throws(TOMLSyntaxProblem) -> UInt64 {
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = digitValue(byte, base: base) else { continue }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: base)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB, sum <= limit else {
                throw TOMLSyntaxProblem(message: "integer \(shown) is out of range")
            }
            value = sum
        }
        return value
    }
}
