/// The most recent call-row IDs seen, so a row delivered twice (LiveQuery and a poll) is handled once.
/// Bounded: the oldest ID is forgotten once `capacity` newer ones arrived, long after its row expired.
struct RecentRowIDs: Equatable, Sendable {
    private let capacity: Int
    private var members: Set<String> = []
    private var order: [String] = []
    private var oldest = 0

    init(capacity: Int) {
        precondition(capacity > 0, "RecentRowIDs needs room for at least one ID")
        self.capacity = capacity
    }

    /// Records `rowID`; `false` if it was already recorded.
    mutating func insert(_ rowID: String) -> Bool {
        guard members.insert(rowID).inserted else { return false }
        if order.count < capacity {
            order.append(rowID)
        } else {
            members.remove(order[oldest])
            order[oldest] = rowID
            oldest = (oldest + 1) % capacity
        }
        return true
    }
}
