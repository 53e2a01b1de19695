/// Turns the raw edge events of one button line into clean gestures (SYSTEM.md §7): sans-IO, a value.
///
/// The GPIO layer feeds it three inputs and arms one timer for `nextDeadline`:
/// - `edge(_:at:receivedAt:)` for each event read with `gpiod_line_event_read` (oldest first);
/// - `levelSample(isActive:at:)` when that timer fires, with the level read by `gpiod_line_get_value`
///   (feed any queued edges first);
/// - or `tick(at:)` when no level can be read (then lost edges are only healed by the next edge).
///
/// Debounce: after any edge the level must stay unchanged for `ButtonTiming.debounce` before it is
/// believed. libgpiod 1.6 has no kernel debounce and its 16-event FIFO drops events silently when full,
/// so two edges in the same direction (a lost edge between them) simply restart the wait, and a level
/// sample that disagrees with what the edges said restarts it from the sampled level.
///
/// Time: inputs never move time backwards; a tick or sample stamped before the latest instant seen counts
/// as that instant. An edge stamp that cannot be true, earlier than the latest instant seen or later than
/// `receivedAt` (a corrupt stamp, or `CLOCK_REALTIME` from a pre-5.7 kernel), is replaced by the read time
/// `receivedAt`: dating an edge later can only delay a confirmation, never hasten one past a bounce, and a
/// far-future stamp cannot push deadlines out of reach.
public struct ButtonInterpreter: Equatable, Sendable {
    public let timing: ButtonTiming
    /// The latest instant seen; inputs stamped earlier count as this one.
    public internal(set) var latestInstant: MonotonicInstant
    /// The level the edges (and samples) say the line has now, bouncing or not.
    public internal(set) var rawIsActive: Bool
    /// The debounced level: whether the button is believed to be held.
    public internal(set) var isPressed: Bool
    /// When the raw level will have been stable for `debounce`, while a change awaits confirmation.
    var settleDeadline: MonotonicInstant?
    /// Which gesture is in progress.
    var phase: GesturePhase
    /// Whether the line chatters (`ButtonTiming.chatterLimit`).
    var chatter: ChatterWatch

    /// Starts from the line's level read at `start`. A button already held then (stuck, or pressed during
    /// start-up) is believed held, but that hold reports nothing, not even its release.
    public init(timing: ButtonTiming = .plain, isActive: Bool, at start: MonotonicInstant) {
        self.timing = timing
        latestInstant = start
        rawIsActive = isActive
        isPressed = isActive
        phase = isActive ? .holding(since: start, report: .silent) : .released
        chatter = ChatterWatch(limit: timing.chatterLimit, start: start)
    }

    /// Whether the line is ignored as chattering (between `chattering` and `chatterEnded`).
    public var isChattering: Bool { chatter.isChattering }

    /// When the caller must next call `levelSample(isActive:at:)` or `tick(at:)`; `nil` when only an
    /// edge can change anything. It may already have passed: then call at once.
    public var nextDeadline: MonotonicInstant? {
        [settleDeadline, gestureDeadline?.at, chatter.quietDeadline].compactMap { $0 }.min()
    }

    /// An edge event with its kernel timestamp, read from the line at `receivedAt`.
    public mutating func edge(
        _ edge: ButtonEdge, at timestamp: MonotonicInstant, receivedAt: MonotonicInstant
    ) -> [GestureReport] {
        let readInstant = max(receivedAt, latestInstant)
        let instant = (latestInstant...readInstant).contains(timestamp) ? timestamp : readInstant
        var reports: [GestureReport] = []
        advance(to: instant, trustingEdges: true, into: &reports)
        restartSettling(isActive: edge.isActive, at: instant)
        chatter.edgeSeen(at: instant)
        return reports
    }

    /// The line's level read at `instant`. If it differs from what the edges said, edges were lost:
    /// the pending change is not confirmed and the wait restarts from the sampled level.
    public mutating func levelSample(isActive: Bool, at instant: MonotonicInstant) -> [GestureReport] {
        let instant = max(instant, latestInstant)
        var reports: [GestureReport] = []
        let edgesAgree = isActive == rawIsActive
        advance(to: instant, trustingEdges: edgesAgree, into: &reports)
        if !edgesAgree {
            restartSettling(isActive: isActive, at: instant)
            chatter.edgeSeen(at: instant)
        }
        return reports
    }

    /// The timer fired at `instant` and no level was read: deadlines due by then are handled, trusting
    /// the edges seen so far.
    public mutating func tick(at instant: MonotonicInstant) -> [GestureReport] {
        var reports: [GestureReport] = []
        advance(to: max(instant, latestInstant), trustingEdges: true, into: &reports)
        return reports
    }

    /// The line changed (or may have) at `instant`: believe `isActive` only after `debounce` of quiet.
    private mutating func restartSettling(isActive: Bool, at instant: MonotonicInstant) {
        rawIsActive = isActive
        settleDeadline = instant + timing.debounce
    }
}
