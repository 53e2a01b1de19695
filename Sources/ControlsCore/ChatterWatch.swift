/// The chatter guard of one button (`ChatterLimit`): its recent debounced presses, whether the line chatters,
/// and its latest edge, from which the quiet that ends chattering is measured.
struct ChatterWatch: Equatable, Sendable {
    let limit: ChatterLimit?
    /// Debounced presses within the limit's window, oldest first (empty while chattering).
    private(set) var recentPresses: [MonotonicInstant] = []
    private(set) var isChattering = false
    private(set) var lastEdgeAt: MonotonicInstant

    init(limit: ChatterLimit?, start: MonotonicInstant) {
        self.limit = limit
        lastEdgeAt = start
    }

    /// A debounced press at `instant`; true when it is the one that makes the line chatter.
    mutating func pressConfirmed(at instant: MonotonicInstant) -> Bool {
        guard let limit, !isChattering else { return false }
        recentPresses.append(instant)
        recentPresses.removeAll { instant - $0 > limit.window }
        guard recentPresses.count >= limit.presses else { return false }
        isChattering = true
        recentPresses = []
        return true
    }

    /// The line changed (or may have) at `instant`: a chattering line's quiet starts again.
    mutating func edgeSeen(at instant: MonotonicInstant) {
        lastEdgeAt = max(lastEdgeAt, instant)
    }

    /// When a chattering line will have been quiet long enough to be believed again.
    var quietDeadline: MonotonicInstant? {
        guard isChattering, let limit else { return nil }
        return lastEdgeAt + limit.quiet
    }

    mutating func quietReached() {
        isChattering = false
    }
}
