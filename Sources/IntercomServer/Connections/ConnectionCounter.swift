import Synchronization

/// How many connections are open now, shared by every connection's guard (they run on different event
/// loops, hence the atomic).
final class ConnectionCounter: Sendable {
    private let open = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection in; false (and not counted) when the cap is reached.
    func admit() -> Bool {
        while true {
            let current = open.load(ordering: .relaxed)
            guard current < limit else { return false }
            if open.compareExchange(expected: current, desired: current + 1, ordering: .relaxed).exchanged { return true }
        }
    }

    func release() {
        open.subtract(1, ordering: .relaxed)
    }

    var count: Int { open.load(ordering: .relaxed) }
}
