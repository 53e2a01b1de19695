import Synchronization

/// One `LogRateLimiter` shared by every copy of a log handler (swift-log copies handlers freely, and every
/// `Logger(label:)` makes a new one), behind a mutex.
public final class SharedLogRateLimiter: Sendable {
    private let state: Mutex<LogRateLimiter>

    public init(_ limiter: LogRateLimiter = LogRateLimiter()) {
        state = Mutex(limiter)
    }

    public func admit(label: String, at now: Duration) -> LogRateLimiter.Decision {
        state.withLock { $0.admit(label: label, at: now) }
    }

    public func drainExpired(at now: Duration) -> [LogRateLimiter.Suppression] {
        state.withLock { $0.drainExpired(at: now) }
    }
}
