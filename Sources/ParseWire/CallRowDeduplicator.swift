import Foundation

/// Exactly-once intake of call rows (reliability matrix row 6). Rows arrive from LiveQuery create/enter
/// events, again after every reconnect, and again from each poll until the receiver deletes them; each
/// objectId must start at most one call.
///
/// Memory is bounded twice: at most `capacity` ids are kept (oldest forgotten first), and an id is forgotten
/// once its row's `expiresAt` has passed — safe, because an expired row is refused anyway (`.expired`).
/// Rows without `expiresAt` (unmodified servers) are kept for `defaultRetentionSeconds`.
public struct CallRowDeduplicator: Sendable {
    public enum Verdict: Sendable, Hashable {
        /// First sighting: start handling this call.
        case deliver
        case duplicate
        /// The row's `expiresAt` is not after `now`: never deliver it.
        case expired
    }

    public let capacity: Int
    public let defaultRetentionSeconds: Double
    private var forgetAt: [String: Date] = [:]
    /// Insertion order for capacity eviction; may hold ids already forgotten by expiry (skipped lazily).
    private var order: [String] = []
    private var orderStart = 0

    public init(capacity: Int = 1024, defaultRetentionSeconds: Double = 600) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.defaultRetentionSeconds = defaultRetentionSeconds
    }

    /// How many ids are remembered now.
    public var count: Int { forgetAt.count }

    public mutating func admit(_ row: ActiveSessionRow, now: Date) -> Verdict {
        admit(objectId: row.objectId, expiresAt: row.expiresAt?.date, now: now)
    }

    public mutating func admit(objectId: String, expiresAt: Date?, now: Date) -> Verdict {
        pruneExpired(now: now)
        if forgetAt[objectId] != nil { return .duplicate }
        if let expiresAt, expiresAt <= now { return .expired }
        let until = expiresAt ?? now.addingTimeInterval(defaultRetentionSeconds)
        forgetAt[objectId] = until
        order.append(objectId)
        while forgetAt.count > capacity { evictOldest() }
        compactOrderIfNeeded()
        return .deliver
    }

    private mutating func pruneExpired(now: Date) {
        // Ids are forgotten only after their row expired; an expired copy re-arriving is then `.expired`.
        guard forgetAt.values.contains(where: { $0 <= now }) else { return }
        forgetAt = forgetAt.filter { $0.value > now }
    }

    private mutating func evictOldest() {
        while orderStart < order.count {
            let id = order[orderStart]
            orderStart += 1
            if forgetAt.removeValue(forKey: id) != nil { return }
        }
    }

    private mutating func compactOrderIfNeeded() {
        guard order.count > 2 * capacity else { return }
        order = order[orderStart...].filter { forgetAt[$0] != nil }
        orderStart = 0
    }
}
