/// One-shot timers keyed by what they are for, on a monotonic clock given as a `Duration` since an epoch:
/// the transaction timers A–K, the registration refresh and the keepalive. Starting a key again replaces it;
/// a cancelled timer never fires (what `TransactionEvent.timerFired` promises).
struct SIPDeadlines<Key: Hashable> {
    private var deadlines: [Key: Duration] = [:]

    mutating func start(_ key: Key, at deadline: Duration) { deadlines[key] = deadline }
    mutating func cancel(_ key: Key) { deadlines[key] = nil }
    mutating func cancelAll(where matches: (Key) -> Bool) {
        for key in deadlines.keys where matches(key) { deadlines[key] = nil }
    }

    /// The earliest deadline, for the poll timeout.
    var next: Duration? { deadlines.values.min() }

    /// Removes and returns the keys due at `now`, earliest first.
    mutating func takeDue(at now: Duration) -> [Key] {
        let due = deadlines.filter { $0.value <= now }.sorted { $0.value < $1.value }.map(\.key)
        for key in due { deadlines[key] = nil }
        return due
    }
}
