/// When to poll `ActiveSessions where receiverID == me` (SYSTEM.md §3): every 8 s ± jitter while LiveQuery
/// is down, and a 60 s safety poll while it is up.
public struct PollSchedule: Sendable, Hashable {
    public var fallbackSeconds: Double
    public var safetySeconds: Double
    /// Relative jitter: the delay is uniform in [d·(1−j), d·(1+j)].
    public var jitterFraction: Double

    public init(fallbackSeconds: Double = 8, safetySeconds: Double = 60, jitterFraction: Double = 0.25) {
        precondition(fallbackSeconds > 0 && safetySeconds > 0 && (0..<1).contains(jitterFraction))
        self.fallbackSeconds = fallbackSeconds
        self.safetySeconds = safetySeconds
        self.jitterFraction = jitterFraction
    }

    public func nextDelay(liveQueryUp: Bool, using rng: inout some RandomNumberGenerator) -> Double {
        let base = liveQueryUp ? safetySeconds : fallbackSeconds
        return base * (1 - jitterFraction + 2 * jitterFraction * rng.unitInterval())
    }
}
