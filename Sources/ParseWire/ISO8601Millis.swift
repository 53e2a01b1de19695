import Foundation

/// The timestamp form parse-server writes: `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, milliseconds). The one owner of
/// that text for the agent (as `Date`) and the server (as integer milliseconds, which SQLite compares and
/// indexes). Hand-written (civil-date arithmetic after H. Hinnant's `days_from_civil` / `civil_from_days`,
/// proleptic Gregorian) so it is Sendable, locale-free and allocation-light on the fuzzed path.
///
/// Two readings: `.strict` (what parse-server sends; the agent's): `T`, no fraction or 1–9 fraction digits,
/// `Z`, seconds below 60. `.lenient` (what the server accepts from clients, as JavaScript's `Date` would):
/// also a space for `T`, a `+00:00` offset, a leap second `:60`, and fractions of any length.
public enum ISO8601Millis {
    public enum Reading: Sendable { case strict, lenient }

    public static func parse(_ text: String) -> Date? {
        guard let parsed = Parsed(text, .strict) else { return nil }
        let fraction = Double(parsed.fraction) / pow(10, Double(parsed.fractionDigits))
        return Date(timeIntervalSince1970: Double(parsed.wholeSeconds) + fraction)
    }

    /// Milliseconds since 1970 (fraction digits past the third dropped), or nil.
    public static func milliseconds(from text: String, _ reading: Reading = .strict) -> Int64? {
        guard let parsed = Parsed(text, reading) else { return nil }
        var millis = parsed.fraction
        var digits = parsed.fractionDigits
        while digits > 3 { millis /= 10; digits -= 1 }
        while digits < 3 { millis *= 10; digits += 1 }
        return parsed.wholeSeconds * 1000 + millis
    }

    /// Formats with exactly three fraction digits, rounding to the nearest millisecond. Dates outside
    /// years 0000–9999 (or NaN) are clamped into that range: the wire format has four year digits.
    public static func format(_ date: Date) -> String {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        return format(milliseconds: Int64(millis.isNaN ? 0 : min(max(millis, Double(lowest)), Double(highest))))
    }

    /// Formats milliseconds since 1970, clamped into years 0000–9999.
    public static func format(milliseconds: Int64) -> String {
        let (daysPart, millisOfDay) = floorDivMod(min(max(milliseconds, lowest), highest), 86_400_000)
        let (year, month, day) = civilFromDays(Int(daysPart))
        let ms = Int(millisOfDay)
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(ms / 3_600_000, 2)):"
            + "\(pad(ms / 60_000 % 60, 2)):\(pad(ms / 1000 % 60, 2)).\(pad(ms % 1000, 3))Z"
    }

    private static let lowest: Int64 = -62_167_219_200_000      // 0000-01-01T00:00:00.000Z
    private static let highest: Int64 = 253_402_300_799_999     // 9999-12-31T23:59:59.999Z

    /// The fields of one timestamp text: whole seconds since 1970 and the fraction as written.
    private struct Parsed {
        var wholeSeconds: Int64
        var fraction: Int64 = 0
        var fractionDigits = 0

        init?(_ text: String, _ reading: Reading) {
            let b = Array(text.utf8)
            let lenient = reading == .lenient
            guard b.count >= 20, lenient || b.count <= 30 else { return nil }
            func digits(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for i in start..<start + count {
                    let d = Int(b[i]) - 48
                    guard d >= 0, d <= 9 else { return nil }
                    value = value * 10 + d
                }
                return value
            }
            guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
                  b[10] == UInt8(ascii: "T") || (lenient && b[10] == UInt8(ascii: " ")),
                  b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
                  let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
                  let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
                  (1...12).contains(month), day >= 1, day <= ISO8601Millis.daysIn(month: month, year: year),
                  hour < 24, minute < 60, second < (lenient ? 61 : 60)
            else { return nil }
            var index = 19
            if index < b.count, b[index] == UInt8(ascii: ".") {
                index += 1
                while index < b.count, (48...57).contains(b[index]) {
                    // Digits past the eighteenth cannot change a millisecond; they are read, not kept.
                    if fractionDigits < 18 {
                        fraction = fraction * 10 + Int64(b[index] - 48)
                        fractionDigits += 1
                    }
                    index += 1
                }
                guard fractionDigits > 0, lenient || index - 20 <= 9 else { return nil }
            }
            let zone = b[index...]
            guard zone.elementsEqual("Z".utf8) || (lenient && zone.elementsEqual("+00:00".utf8)) else { return nil }
            let days = ISO8601Millis.daysFromCivil(year: year, month: month, day: day)
            wholeSeconds = Int64(days * 86_400 + hour * 3600 + minute * 60 + second)
        }
    }

    private static func floorDivMod(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
