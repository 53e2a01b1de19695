/// A local wall-clock time of day with minute resolution, 00:00 ... 23:59.
///
/// Quiet hours are defined in local time, but the machine holds no wall clock: the IO layer converts "now" to
/// the device's local minute of day and passes it in with each incoming call.
public struct MinuteOfDay: Comparable, Hashable, Sendable {
    /// Minutes in a day; valid values are `0 ..< minutesPerDay`.
    public static let minutesPerDay = 24 * 60

    /// Minutes since local midnight, `0 ..< 1440`.
    public let minutesSinceMidnight: Int

    /// A time of day from its minutes since midnight.
    /// - Throws: `MinuteOfDayError.outOfRange` unless `0 <= minutes < 1440`.
    public init(minutesSinceMidnight minutes: Int) throws(MinuteOfDayError) {
        guard (0..<Self.minutesPerDay).contains(minutes) else {
            throw .outOfRange(minutesSinceMidnight: minutes)
        }
        self.minutesSinceMidnight = minutes
    }

    /// A time of day from a 24-hour clock reading, e.g. `(22, 30)`.
    /// - Throws: `MinuteOfDayError.badClockTime` unless `0...23` and `0...59`.
    public init(hour: Int, minute: Int) throws(MinuteOfDayError) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else {
            throw .badClockTime(hour: hour, minute: minute)
        }
        self.minutesSinceMidnight = hour * 60 + minute
    }

    public static func < (lhs: MinuteOfDay, rhs: MinuteOfDay) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }
}

/// Why a `MinuteOfDay` could not be made.
public enum MinuteOfDayError: Error, Equatable, Sendable {
    /// Minutes since midnight outside `0 ..< 1440`.
    case outOfRange(minutesSinceMidnight: Int)
    /// An hour outside `0...23` or a minute outside `0...59`.
    case badClockTime(hour: Int, minute: Int)
}
