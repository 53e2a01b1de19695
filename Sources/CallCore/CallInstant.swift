/// A point on the device's monotonic clock, as time since boot (`CLOCK_MONOTONIC`, Swift's `ContinuousClock`).
///
/// The state machine never reads a clock: every event arrives with one of these, so tests use plain numbers
/// and wall-clock jumps (NTP, DST) cannot shorten or stretch a ring or a call.
public struct CallInstant: Comparable, Hashable, Sendable {
    /// Time since an arbitrary fixed origin, normally boot.
    public var sinceBoot: Duration

    public init(sinceBoot: Duration) {
        self.sinceBoot = sinceBoot
    }

    /// The origin of the clock.
    public static let zero = CallInstant(sinceBoot: .zero)

    public static func < (lhs: CallInstant, rhs: CallInstant) -> Bool {
        lhs.sinceBoot < rhs.sinceBoot
    }

    /// The instant `duration` after `instant`.
    public static func + (instant: CallInstant, duration: Duration) -> CallInstant {
        CallInstant(sinceBoot: instant.sinceBoot + duration)
    }

    /// The time from `earlier` to `later` (negative if `later` is before `earlier`).
    public static func - (later: CallInstant, earlier: CallInstant) -> Duration {
        later.sinceBoot - earlier.sinceBoot
    }
}
