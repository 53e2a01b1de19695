import Foundation
import Glibc

/// The two clocks a log handler reads: monotonic time for rate limiting (immune to wall-clock jumps,
/// reliability matrix #16) and wall time for console timestamps. Injectable so tests need no real clock.
public struct LogClock: Sendable {
    public var monotonicNow: @Sendable () -> Duration
    public var wallNow: @Sendable () -> Date

    public init(monotonicNow: @escaping @Sendable () -> Duration, wallNow: @escaping @Sendable () -> Date) {
        self.monotonicNow = monotonicNow
        self.wallNow = wallNow
    }

    /// `CLOCK_MONOTONIC` and `Date()`.
    public static let system = LogClock(
        monotonicNow: {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
        },
        wallNow: { Date() }
    )
}
