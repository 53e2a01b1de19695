/// Reconnect delays of the official LiveQuery clients (parse-wire §8): attempt k waits a uniform random time
/// in [0, min(30, 2^k − 1)) seconds; k starts at 1 and resets to 1 once a subscription is confirmed
/// (Parse-SDK-JS `LiveQueryClient.ts generateInterval`). Unlike Parse-Swift there is no attempt limit: an
/// unattended device never gives up.
public struct LiveQueryReconnectBackoff: Sendable, Hashable {
    public var maxDelaySeconds: Double
    public private(set) var attempt = 1

    public init(maxDelaySeconds: Double = 30) {
        self.maxDelaySeconds = maxDelaySeconds
    }

    /// The ceiling for the current attempt: min(max, 2^k − 1).
    public var currentCeiling: Double {
        min(maxDelaySeconds, Double.pow2(Double(min(attempt, 62))) - 1)
    }

    public mutating func nextDelay(using rng: inout some RandomNumberGenerator) -> Double {
        let delay = rng.unitInterval() * currentCeiling
        attempt += 1
        return delay
    }

    public mutating func reset() { attempt = 1 }
}
