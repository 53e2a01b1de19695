/// A token bucket: `capacity` tokens, refilled at `rate` per second; a request takes one.
struct TokenBucket: Sendable, Equatable {
    private(set) var tokens: Double
    private(set) var updatedAt: Double

    init(capacity: Double, now: Double) {
        tokens = capacity
        updatedAt = now
    }

    /// Refills for the time since the last call, then takes a token if one is there.
    mutating func take(now: Double, rate: Double, capacity: Double) -> Bool {
        if now > updatedAt {
            tokens = min(capacity, tokens + (now - updatedAt) * rate)
            updatedAt = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    func isFull(now: Double, rate: Double, capacity: Double) -> Bool {
        tokens + max(0, now - updatedAt) * rate >= capacity
    }
}
