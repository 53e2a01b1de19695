import Foundation

/// Exactly-once intake of call rows (reliability matrix row 6). Rows arrive from LiveQuery create/enter
/// events, again after every reconnect, and again from each poll until the receiver deletes them; each
/// objectId must start at most one call. The one owner of that guarantee: the call machine trusts it.
///
/// It judges identity only. Whether a row is still worth ringing is the call machine's decision (expiry),
/// so a device clock that disagrees with the server's cannot make rows vanish here without a trace.
/// Memory is bounded twice: at most `capacity` ids are kept (oldest forgotten first), and an id is forgotten
/// `retentionSeconds` after it was first seen, by this device's own clock: far longer than a row lives
/// (the receiver deletes each row as it takes it, and rows ring for a minute).
public struct CallRowDeduplicator: Sendable {
    public enum Verdict: Sendable, Hashable {
        /// First sighting: start handling this call.
        case deliver
        case duplicate
    }

    public let capacity: Int
    public let retentionSeconds: Double
    private var forgetAt: [String: Date] = [:]
    /// Insertion order for capacity eviction; may hold ids already forgotten by age (skipped lazily).
    private var order: [String] = []
    private var orderStart = 0

    public init(capacity: Int = 1024, retentionSeconds: Double = 600) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.retentionSeconds = retentionSeconds
    }

    /// How many ids are remembered now.
    public var count: Int { forgetAt.count }

    public mutating func admit(_ row: ActiveSessionRow, now: Date) -> Verdict {
        admit(objectId: row.objectId, now: now)
    }

    public mutating func admit(objectId: String, now: Date) -> Verdict {
        pruneOld(now: now)
        if forgetAt[objectId] != nil { return .duplicate }
        forgetAt[objectId] = now.addingTimeInterval(retentionSeconds)
        order.append(objectId)
        while forgetAt.count > capacity { evictOldest() }
        compactOrderIfNeeded()
        return .deliver
    }

    private mutating func pruneOld(now: Date) {
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
