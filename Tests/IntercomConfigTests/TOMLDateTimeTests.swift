import IntercomConfig
import Testing

@Suite("TOML date-times")
struct TOMLDateTimeTests {
    @Test(arguments: [
        "1979-05-27T07:32:00Z", "1979-05-27T00:32:00-07:00", "1979-05-27T00:32:00.999999-07:00",
        "1979-05-27 07:32:00Z", "1979-05-27t07:32:00z", "1979-05-27T07:32:00+14:00", "1979-05-27T07:32:00",
        "1979-05-27T00:32:00.999999", "1979-05-27 07:32:00", "1979-05-27", "07:32:00", "00:32:00.999999",
        "2000-02-29", "2024-02-29", "1999-12-31T23:59:60Z", "0000-01-01", "9999-12-31T23:59:59.123456789+23:59",
    ])
    func validDateTimesKeepTheirText(_ text: String) throws {
        let table = try tomlParse("a = \(text) # comment")
        #expect(table.tomlValue("a") == .dateTime(text))
        #expect(table.tomlValue("a")?.typeName == "date-time")
    }

    @Test func dateTimesInArraysAndInlineTables() throws {
        let table = try tomlParse("a = [1979-05-27, 07:32:00, 1979-05-27 07:32:00Z]\nb = {d = 2000-01-01}")
        #expect(table.tomlValue("a")?.tomlArray?.map(\.value) == [
            .dateTime("1979-05-27"), .dateTime("07:32:00"), .dateTime("1979-05-27 07:32:00Z"),
        ])
        #expect(table.tomlValue("b", "d") == .dateTime("2000-01-01"))
    }

    @Test(arguments: [
        ("1979-13-01", "month 13 is out of range"),
        ("1979-00-01", "month 0 is out of range"),
        ("1979-04-31", "day 31 does not exist in that month"),
        ("1900-02-29", "day 29 does not exist in that month"),
        ("1979-02-30", "day 30 does not exist in that month"),
        ("2100-02-29", "day 29 does not exist in that month"),
        ("1979-06-31", "day 31 does not exist in that month"),
        ("1979-09-31", "day 31 does not exist in that month"),
        ("1979-11-31", "day 31 does not exist in that month"),
        ("1979-12-32", "day 32 is out of range"),
        ("1979-05-00", "day 0 is out of range"),
        ("1979-5-27", "month must have 2 digits"),
        ("1979-05-27T24:00:00", "hour 24 is out of range"),
        ("1979-05-27T07:60:00", "minute 60 is out of range"),
        ("1979-05-27T07:32:61", "second 61 is out of range"),
        ("07:32", "seconds are required"),
        ("7:32:00", "hour must have 2 digits"),
        ("1979-05-27T07:32:00.", "expected digits after '.'"),
        ("1979-05-27T07:32:00+7:00", "offset hour must have 2 digits"),
        ("1979-05-27T07:32:00+07", "expected ':' in the offset"),
        ("1979-05-27T07:32:00+24:00", "offset hour 24 is out of range"),
        ("1979-05-27T07:32:00X", "expected 'Z' or an offset like +01:00 after the time"),
        ("1979-05-27T07:32:00ZZ", "unexpected text after the time"),
        ("07:32:00Z", "unexpected text after the time"),
        ("1979-05-27X07:32:00", "expected 'T' or a space between date and time"),
        ("1979-05-27T", "hour must have 2 digits"),
    ])
    func invalidDateTimes(_ text: String, _ reason: String) {
        let error = tomlError("a = \(text)")
        #expect(error?.message == "invalid date-time \(text) (\(reason))")
        #expect(error?.location == tomlAt(1, 5))
    }

    @Test func aSpaceOnlyJoinsADateToATime() {
        // `1979-05-27 x` is a date followed by junk, not a date-time.
        #expect(tomlError("a = 1979-05-27 x")?.message == "expected end of line after value, found 'x'")
        #expect(tomlError("a = 1979-05-27  07:32:00")?.location == tomlAt(1, 17))
    }
}
