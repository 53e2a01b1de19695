extension ButtonInterpreter {
    /// The debounced level went down at `instant`.
    mutating func pressConfirmed(at instant: MonotonicInstant, into reports: inout [GestureReport]) {
        switch phase {
        case .awaitingSecondPress:
            // Still within the window: `advance` closes it first once it has passed.
            reports.append(GestureReport(.doublePress, at: instant))
            phase = .holding(since: instant, report: .reported)
        case .released where !timing.reportsLongPress && !timing.reportsDoublePress:
            reports.append(GestureReport(.press, at: instant))
            phase = .holding(since: instant, report: .reported)
        case .released:
            phase = .holding(since: instant, report: .pending)
        case .holding:
            break  // Unreachable: a press is confirmed only while the debounced level is up.
        }
    }

    /// The debounced level went up at `instant`.
    mutating func releaseConfirmed(at instant: MonotonicInstant, into reports: inout [GestureReport]) {
        switch phase {
        case .holding(let since, .pending):
            if timing.reportsDoublePress, instant < since + timing.doublePressWindow {
                phase = .awaitingSecondPress(firstPressAt: since)
            } else {
                reports.append(GestureReport(.press, at: instant))
                reports.append(GestureReport(.release, at: instant))
                phase = .released
            }
        case .holding(_, .reported):
            reports.append(GestureReport(.release, at: instant))
            phase = .released
        case .holding(_, .silent):
            phase = .released
        case .released, .awaitingSecondPress:
            break  // Unreachable: a release is confirmed only while the debounced level is down.
        }
    }

    /// A gesture's timer step is due.
    mutating func deadlineReached(_ deadline: GestureDeadline, into reports: inout [GestureReport]) {
        switch deadline {
        case .longPress(let at):
            reports.append(GestureReport(.longPress, at: at))
            if case .holding(let since, _) = phase {
                phase = .holding(since: since, report: .reported)
            }
        case .doublePressWindowCloses(let at):
            reports.append(GestureReport(.press, at: at))
            reports.append(GestureReport(.release, at: at))
            phase = .released
        }
    }
}
