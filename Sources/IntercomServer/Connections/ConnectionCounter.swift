import Synchronization

/// How many connections are open now, shared by every connection's guard (they run on different event
/// loops, hence the atomic).
final class ConnectionCounter: Sendable {
    private let open = Atomic<Int>(0)
    /// The most connections open since memory was last trimmed (`MemoryTrim`).
    private let peak = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection in; false (and not counted) when the cap is reached.
    func admit() -> Bool {
        while true {
            let current = open.load(ordering: .relaxed)
            guard current < limit else { return false }
            if open.compareExchange(expected: current, desired: current + 1, ordering: .relaxed).exchanged {
                peak.max(current + 1, ordering: .relaxed)
                return true
            }
        }
    }

    /// Counts a connection out; once a burst of at least `MemoryTrim.burstSize` has drained to a tenth,
    /// the memory its buffers held is handed back.
    func release() {
        let now = open.subtract(1, ordering: .relaxed).newValue
        let highest = peak.load(ordering: .relaxed)
        if highest >= MemoryTrim.burstSize, now <= highest / 10,
           peak.compareExchange(expected: highest, desired: now, ordering: .relaxed).exchanged {
            MemoryTrim.releaseFreedMemory()
        }
    }

    var count: Int { open.load(ordering: .relaxed) }
}
