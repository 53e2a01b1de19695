import Foundation

/// When to retry a REST request (reliability matrix rows 1, 3, 4). Transport errors and 5xx back off
/// exponentially with jitter, capped at `maxDelaySeconds` (8 s); 429 backs off as well and honours
/// `Retry-After` up to `maxRetryAfterSeconds`; other 4xx are final. A 209, with any status, asks for one
/// re-login per request; a second 209 after that is a failure.
public struct RetryPolicy: Sendable, Hashable {
    public var maxAttempts: Int
    public var baseDelaySeconds: Double
    public var maxDelaySeconds: Double
    public var maxRetryAfterSeconds: Double

    public init(maxAttempts: Int = 5, baseDelaySeconds: Double = 0.5, maxDelaySeconds: Double = 8, maxRetryAfterSeconds: Double = 60) {
        precondition(maxAttempts >= 1 && baseDelaySeconds > 0 && maxDelaySeconds >= baseDelaySeconds)
        self.maxAttempts = maxAttempts
        self.baseDelaySeconds = baseDelaySeconds
        self.maxDelaySeconds = maxDelaySeconds
        self.maxRetryAfterSeconds = maxRetryAfterSeconds
    }

    /// The un-jittered delay before retry number `retry` (1-based): base·2^(retry−1), capped.
    public func ceilingDelay(retry: Int) -> Double {
        let exponent = Double(min(max(retry - 1, 0), 30))
        return min(maxDelaySeconds, baseDelaySeconds * Double.pow2(exponent))
    }

    /// "Equal jitter": half the ceiling plus a random half, so delays still grow while retries spread out.
    public func jitteredDelay(retry: Int, using rng: inout some RandomNumberGenerator) -> Double {
        let ceiling = ceilingDelay(retry: retry)
        return ceiling / 2 + rng.unitInterval() * ceiling / 2
    }
}

extension Double {
    static func pow2(_ exponent: Double) -> Double { Foundation.pow(2, exponent) }
}
