/// Rate-limits keyframe requests to the encoder (research notes §3: at most one per 300–500 ms).
/// A request inside the quiet interval is not lost: it is remembered and granted by `poll` once the
/// interval has passed, so the last PLI of a burst still produces a keyframe. Sans-IO: time is an input.
public struct KeyframeRequestLimiter: Sendable, Equatable {
    public let minimumInterval: Duration
    public private(set) var lastGranted: Duration?
    public private(set) var pending = false

    public init(minimumInterval: Duration = .milliseconds(400)) {
        self.minimumInterval = minimumInterval
    }

    /// A request at `now`: true when a keyframe should be produced at once.
    public mutating func request(now: Duration) -> Bool {
        if let lastGranted, now - lastGranted < minimumInterval {
            pending = true
            return false
        }
        grant(now)
        return true
    }

    /// Call periodically: true when a deferred request is now due.
    public mutating func poll(now: Duration) -> Bool {
        guard pending, let lastGranted, now - lastGranted >= minimumInterval else { return false }
        grant(now)
        return true
    }

    private mutating func grant(_ now: Duration) {
        lastGranted = now
        pending = false
    }
}
