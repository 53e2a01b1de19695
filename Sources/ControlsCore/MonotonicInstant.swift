/// A point on the kernel's `CLOCK_MONOTONIC`, as time since boot.
///
/// libgpiod 1.6 stamps line events with this clock (kernel 5.7 and later), so edges and timer ticks can be
/// compared directly. Nothing in this module reads a clock: every input carries one of these.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Time since boot.
    public var sinceBoot: Duration

    public init(sinceBoot: Duration) {
        self.sinceBoot = sinceBoot
    }

    /// Boot.
    public static let zero = MonotonicInstant(sinceBoot: .zero)

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.sinceBoot < rhs.sinceBoot
    }

    /// The instant `duration` after `instant`.
    public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        MonotonicInstant(sinceBoot: instant.sinceBoot + duration)
    }

    /// The time from `earlier` to `later` (negative when `later` comes first).
    public static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
        later.sinceBoot - earlier.sinceBoot
    }

    public var description: String {
        "\(sinceBoot) since boot"
    }
}
