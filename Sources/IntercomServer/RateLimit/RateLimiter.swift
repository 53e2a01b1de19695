import Synchronization

/// One token bucket per client IP (parse-server's `zone: "ip"`). Requests with the master key and, by
/// default, from loopback are not counted, as in parse-server. The table is bounded: when it grows past
/// `maximumClients`, buckets that have refilled completely (idle clients) are forgotten.
final class RateLimiter: Sendable {
    private let configuration: RateLimitConfiguration
    private let clock: ServerClock
    private let buckets = Mutex<[String: TokenBucket]>([:])
    static let maximumClients = 10_000

    init(configuration: RateLimitConfiguration, clock: ServerClock) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Whether a request from `address` may proceed.
    func admit(address: String?, isMaster: Bool) -> Bool {
        guard configuration.enabled, !isMaster else { return true }
        if !configuration.includeLoopback, PeerAddress.isLoopback(address) { return true }
        let key = address.map(PeerAddress.normalized) ?? "unknown"
        let now = clock.now.timeIntervalSince1970
        let rate = configuration.requestsPerSecond
        let capacity = configuration.burst
        return buckets.withLock { table in
            if table.count >= Self.maximumClients, table[key] == nil {
                table = table.filter { !$0.value.isFull(now: now, rate: rate, capacity: capacity) }
            }
            var bucket = table[key] ?? TokenBucket(capacity: capacity, now: now)
            let admitted = bucket.take(now: now, rate: rate, capacity: capacity)
            table[key] = bucket
            return admitted
        }
    }
}
