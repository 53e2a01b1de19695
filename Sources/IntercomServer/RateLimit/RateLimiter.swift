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

    /// Whether a request from `client` may proceed. A loopback peer that forwards for someone without
    /// being a trusted proxy is counted (issue #14, 7), under the peer's address.
    func admit(client: ClientAddress, isMaster: Bool) -> Bool {
        guard configuration.enabled, !isMaster else { return true }
        if !configuration.includeLoopback, client.isLocal { return true }
        let key = client.address.map(PeerAddress.normalized) ?? "unknown"
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

    /// `admit(client:isMaster:)` for a peer that reached the server directly.
    func admit(address: String?, isMaster: Bool) -> Bool {
        admit(client: ClientAddress(address: address, forwardedByUntrustedPeer: false), isMaster: isMaster)
    }
}
