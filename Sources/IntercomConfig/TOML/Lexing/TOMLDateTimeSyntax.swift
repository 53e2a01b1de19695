/// Offset date-time, local date-time, local date and local time (TOML 1.0 "Offset Date-Time" …
/// "Local Time", i.e. RFC 3339 with `T`, `t` or a space between date and time; seconds required).
enum TOMLDateTimeSyntax {
    /// Numbers never contain `:` and never have `-` right after four digits, so such a token is meant to
    /// be a date or a time.
    static func looksLikeDateTime(_ token: ArraySlice<UInt8>) -> Bool {
        token.contains(TOMLByte.colon) || startsWithFullDate(token)
    }

    /// `YYYY-MM-DD` shape (not yet range checked), used to decide whether a space may join a time.
    static func isFullDateShape(_ token: ArraySlice<UInt8>) -> Bool {
        token.count == 10 && startsWithFullDate(token) && token.dropFirst(5).prefix(2).allSatisfy(TOMLByte.isDigit)
            && token.dropFirst(7).first == TOMLByte.minus && token.dropFirst(8).allSatisfy(TOMLByte.isDigit)
    }

    private static func startsWithFullDate(_ token: ArraySlice<UInt8>) -> Bool {
        token.count >= 5 && token.prefix(4).allSatisfy(TOMLByte.isDigit) && token.dropFirst(4).first == TOMLByte.minus
    }

    static func validate(_ token: [UInt8]) throws(TOMLSyntaxProblem) {
        let shown = TOMLDisplay.shortened(String(decoding: token, as: UTF8.self))
        var reader = Reader(token: token, shown: shown)
        if startsWithFullDate(token[...]) {
            try reader.readDate()
            if reader.isAtEnd { return }
            guard let delimiter = reader.next(), delimiter == TOMLByte.space || delimiter | 0x20 == UInt8(ascii: "t")
            else { throw reader.problem("expected 'T' or a space between date and time") }
            try reader.readTime()
            if !reader.isAtEnd { try reader.readOffset() }
        } else {
            try reader.readTime()
        }
        guard reader.isAtEnd else { throw reader.problem("unexpected text after the time") }
    }

    private struct Reader {
        let token: [UInt8]
        let shown: String
        var index = 0

        var isAtEnd: Bool { index >= token.count }

        func problem(_ reason: String) -> TOMLSyntaxProblem {
            TOMLSyntaxProblem(message: "invalid date-time \(shown) (\(reason))")
        }

        mutating func next() -> UInt8? {
            guard index < token.count else { return nil }
            defer { index += 1 }
            return token[index]
        }

        mutating func number(digits: Int, _ name: String, in range: ClosedRange<Int>) throws(TOMLSyntaxProblem) -> Int {
            var value = 0
            for _ in 0..<digits {
                guard let byte = next(), TOMLByte.isDigit(byte) else {
                    throw problem("\(name) must have \(digits) digits")
                }
                value = value * 10 + Int(byte - 0x30)
            }
            guard range.contains(value) else { throw problem("\(name) \(value) is out of range") }
            return value
        }

        mutating func expect(_ byte: UInt8, _ reason: String) throws(TOMLSyntaxProblem) {
            guard next() == byte else { throw problem(reason) }
        }

        mutating func readDate() throws(TOMLSyntaxProblem) {
            let year = try number(digits: 4, "year", in: 0...9999)
            try expect(TOMLByte.minus, "expected '-' after the year")
            let month = try number(digits: 2, "month", in: 1...12)
            try expect(TOMLByte.minus, "expected '-' after the month")
            let day = try number(digits: 2, "day", in: 1...31)
            guard day <= Self.daysIn(month: month, year: year) else {
                throw problem("day \(day) does not exist in that month")
            }
        }

        mutating func readTime() throws(TOMLSyntaxProblem) {
            _ = try number(digits: 2, "hour", in: 0...23)
            try expect(TOMLByte.colon, "expected ':' after the hour")
            _ = try number(digits: 2, "minute", in: 0...59)
            try expect(TOMLByte.colon, "seconds are required")
            _ = try number(digits: 2, "second", in: 0...60)  // 60: RFC 3339 leap second
            guard index < token.count, token[index] == TOMLByte.dot else { return }
            index += 1
            guard index < token.count, TOMLByte.isDigit(token[index]) else {
                throw problem("expected digits after '.'")
            }
            while index < token.count, TOMLByte.isDigit(token[index]) { index += 1 }
        }

        mutating func readOffset() throws(TOMLSyntaxProblem) {
            switch next() {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                return
            case TOMLByte.plus, TOMLByte.minus:
                _ = try number(digits: 2, "offset hour", in: 0...23)
                try expect(TOMLByte.colon, "expected ':' in the offset")
                _ = try number(digits: 2, "offset minute", in: 0...59)
            default:
                throw problem("expected 'Z' or an offset like +01:00 after the time")
            }
        }

        static func daysIn(month: Int, year: Int) -> Int {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }
    }
}
