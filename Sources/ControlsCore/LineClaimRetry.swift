/// When to try again to claim GPIO lines that could not be claimed (another program holds one, or the chip
/// is not there yet), and when to say so: sans-IO, a value.
///
/// Tries back off from `firstDelay`, doubling up to `maximumDelay`, so a line held for good costs one try
/// every `maximumDelay` and a line freed after a while is claimed within `maximumDelay` of being freed. A
/// streak of failures is logged once, at its first failure, and its end once, when the lines are claimed.
public struct LineClaimRetry: Equatable, Sendable {
    public let firstDelay: Duration
    public let maximumDelay: Duration
    /// Failures since the lines were last claimed (or since start).
    public private(set) var failuresInStreak = 0

    /// 1 s, 2 s, 4 s, 8 s, then every 10 s.
    public init(firstDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(10)) {
        self.firstDelay = firstDelay
        self.maximumDelay = max(firstDelay, maximumDelay)
    }

    /// A claim failed: how long to wait before the next try, and whether this failure starts a streak (the
    /// one to log).
    public mutating func failed() -> (retryAfter: Duration, startsStreak: Bool) {
        failuresInStreak += 1
        var delay = firstDelay
        for _ in 1..<failuresInStreak where delay < maximumDelay {
            delay = delay * 2
        }
        return (min(delay, maximumDelay), failuresInStreak == 1)
    }

    /// The lines were claimed: the streak ends. Returns how many failures it had (0: nothing to log).
    public mutating func claimed() -> Int {
        defer { failuresInStreak = 0 }
        return failuresInStreak
    }
}
