/// The gesture in progress on a debounced button.
enum GesturePhase: Equatable, Sendable {
    /// Up, nothing pending.
    case released
    /// Down since a debounced press at `since`.
    case holding(since: MonotonicInstant, report: HoldReport)
    /// Up after a short press at `firstPressAt`; a second press by `firstPressAt + doublePressWindow` makes
    /// a `doublePress`, otherwise the first one is reported as `press` when the window closes.
    case awaitingSecondPress(firstPressAt: MonotonicInstant)
}

/// What a hold has reported so far, which decides what its release reports.
enum HoldReport: Equatable, Sendable {
    /// Nothing yet: the release or the long-press deadline decides between `press` and `longPress`.
    case pending
    /// An activation was reported: the release reports `release`.
    case reported
    /// `longPress` was reported: the release reports `release`, a `stuck` says it came after a long press.
    case longPressed
    /// `stuck` was reported: nothing more but the `release`.
    case stuck
    /// Held since start-up: nothing is reported for this hold.
    case silent
}

/// A timer-driven step of a gesture.
enum GestureDeadline: Equatable, Sendable {
    /// The hold reaches `longPressThreshold`.
    case longPress(at: MonotonicInstant)
    /// The double-press window after a first press closes.
    case doublePressWindowCloses(at: MonotonicInstant)
    /// The hold reaches `stuckThreshold`.
    case stuck(at: MonotonicInstant)

    var at: MonotonicInstant {
        switch self {
        case .longPress(let at), .doublePressWindowCloses(let at), .stuck(let at): at
        }
    }
}
