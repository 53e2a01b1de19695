/// Parse's timestamp text: ISO 8601 UTC with milliseconds, `YYYY-MM-DDTHH:MM:SS.MMMZ`. Stored as integer
/// milliseconds since 1970 so SQLite can compare and index them. The calendar arithmetic is Howard
/// Hinnant's `days_from_civil` / `civil_from_days` (proleptic Gregorian), so no formatter or locale is used.
public enum ParseTimestamp {
    public static func format(milliseconds: Int64) -> String {
        let (days, millisOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = millisOfDay / 3_600_000
        let minute = millisOfDay / 60_000 % 60
        let second = millisOfDay / 1000 % 60
        let millis = millisOfDay % 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2)
            + ":" + pad(second, 2) + "." + pad(millis, 3) + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…]Z` (fraction optional, any length; a `+00:00` offset is accepted).
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x20,
              bytes[13] == 0x3A, bytes[16] == 0x3A,
              let year = digits(bytes, 0, 4), let month = digits(bytes, 5, 2), let day = digits(bytes, 8, 2),
              let hour = digits(bytes, 11, 2), let minute = digits(bytes, 14, 2), let second = digits(bytes, 17, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
              second < 61
        else { return nil }
        var index = 19
        var millis: Int64 = 0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var scale: Int64 = 100
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                millis += Int64(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        let rest = bytes[index...]
        guard rest.elementsEqual("Z".utf8) || rest.elementsEqual("+00:00".utf8) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return (days * 86_400 + hour * 3600 + minute * 60 + second) * 1000 + millis
    }

    /// Parse's typed date, `{"__type":"Date","iso":"…"}`.
    public static func typedDate(milliseconds: Int64) -> JSONValue {
        .object(["__type": "Date", "iso": .string(format(milliseconds: milliseconds))])
    }

    private static func digits(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for byte in bytes[start..<start + count] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
