import Glibc

/// CPU time consumed so far, from `clock_gettime(2)`: `CLOCK_PROCESS_CPUTIME_ID` (all threads, what
/// `vp8bench.c` reports per frame) and `CLOCK_THREAD_CPUTIME_ID` (the calling thread, what `opusbench.c`
/// puts around each `opus_encode`).
public enum CPUClock {
    public static func process() -> Duration { read(CLOCK_PROCESS_CPUTIME_ID) }

    public static func thread() -> Duration { read(CLOCK_THREAD_CPUTIME_ID) }

    private static func read(_ clock: clockid_t) -> Duration {
        var now = timespec()
        clock_gettime(clock, &now)
        return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
    }
}

extension Duration {
    /// This duration as fractional milliseconds, for statistics.
    public var benchMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
