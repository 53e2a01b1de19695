/// The per-request retry bookkeeping: one value per logical request, fed each attempt's outcome.
public struct RetryState: Sendable, Hashable {
    public let policy: RetryPolicy
    /// Attempts made so far (counting the one whose outcome is being decided).
    public private(set) var attempts = 0
    public private(set) var reloggedIn = false

    public init(policy: RetryPolicy = RetryPolicy()) {
        self.policy = policy
    }

    public mutating func decide(_ outcome: AttemptOutcome, using rng: inout some RandomNumberGenerator) -> RetryDecision {
        attempts += 1
        switch outcome {
        case .transportError:
            return backOff(rng: &rng)
        case .response(let status, let parseCode, let retryAfter):
            if parseCode == ParseError.Code.invalidSessionToken.rawValue {
                guard !reloggedIn else { return .fail }
                reloggedIn = true
                // The re-login's own request does not count against this request's transport budget.
                attempts -= 1
                return .relogin
            }
            if (200..<300).contains(status) { return parseCode == nil ? .succeeded : .fail }
            if status == 429 {
                guard attempts < policy.maxAttempts else { return .fail }
                if let retryAfter, retryAfter.isFinite, retryAfter >= 0 {
                    return .retry(afterSeconds: min(retryAfter, policy.maxRetryAfterSeconds))
                }
                return backOff(rng: &rng)
            }
            if (500..<600).contains(status) { return backOff(rng: &rng) }
            return .fail
        }
    }

    private func backOff(rng: inout some RandomNumberGenerator) -> RetryDecision {
        guard attempts < policy.maxAttempts else { return .fail }
        return .retry(afterSeconds: policy.jitteredDelay(retry: attempts, using: &rng))
    }
}
