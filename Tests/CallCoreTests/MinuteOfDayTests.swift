import CallCore
import Testing

@Suite("Minute of day")
struct MinuteOfDayTests {
    @Test(arguments: [(0, 0, 0), (7, 30, 450), (12, 0, 720), (23, 59, 1439)])
    func validClockTimes(hour: Int, minute: Int, expected: Int) throws {
        #expect(try MinuteOfDay(hour: hour, minute: minute).minutesSinceMidnight == expected)
        #expect(try MinuteOfDay(minutesSinceMidnight: expected) == MinuteOfDay(hour: hour, minute: minute))
    }

    @Test(arguments: [(24, 0), (-1, 0), (0, 60), (12, -1)])
    func badClockTimesThrow(hour: Int, minute: Int) {
        #expect(throws: MinuteOfDayError.badClockTime(hour: hour, minute: minute)) {
            try MinuteOfDay(hour: hour, minute: minute)
        }
    }

    @Test(arguments: [-1, 1440, Int.max])
    func minutesOutOfRangeThrow(minutes: Int) {
        #expect(throws: MinuteOfDayError.outOfRange(minutesSinceMidnight: minutes)) {
            try MinuteOfDay(minutesSinceMidnight: minutes)
        }
    }
}
