import Glibc

/// `CLOCK_MONOTONIC`, the clock V4L2 stamps buffers with, and `CLOCK_REALTIME` milliseconds for the
/// timestamp band (a receiver on another machine compares it with its own wall clock).
public enum MonotonicClock {
    public static func now() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
    }

    /// Milliseconds since the Unix epoch on the wall clock.
    public static func wallClockMilliseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000
    }

    /// Blocks the calling thread until `deadline` on `CLOCK_MONOTONIC` (absolute, so wakeups do not drift).
    /// Only for dedicated threads: never call it from Swift concurrency's cooperative pool.
    public static func sleep(until deadline: Duration) {
        let (seconds, attoseconds) = deadline.components
        guard seconds >= 0 else { return }
        var target = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }

    /// Blocks the calling thread for `duration` (dedicated threads only).
    public static func sleep(for duration: Duration) {
        sleep(until: now() + duration)
    }
}
