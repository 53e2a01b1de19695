extension ButtonInterpreter {
    /// The debounced level went down at `instant`.
    mutating func pressConfirmed(at instant: MonotonicInstant, into reports: inout [GestureReport]) {
        if chatter.pressConfirmed(at: instant) {
            reports.append(GestureReport(.chattering, at: instant))
        }
        switch phase {
        case .awaitingSecondPress:
            // Still within the window: `advance` closes it first once it has passed.
            report(.doublePress, at: instant, into: &reports)
            phase = .holding(since: instant, report: .reported)
        case .released where !timing.reportsLongPress && !timing.reportsDoublePress:
            report(.press, at: instant, into: &reports)
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
                report(.press, at: instant, into: &reports)
                report(.release, at: instant, into: &reports)
                phase = .released
            }
        case .holding(_, .reported), .holding(_, .longPressed):
            report(.release, at: instant, into: &reports)
            phase = .released
        case .holding(_, .stuck):
            // Even while chattering: the consumer lifts what `stuck` set up.
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
            report(.longPress, at: at, into: &reports)
            if case .holding(let since, _) = phase {
                // A long press dropped as chatter never reached anyone: a later `stuck` has nothing to undo.
                phase = .holding(since: since, report: chatter.isChattering ? .reported : .longPressed)
            }
        case .doublePressWindowCloses(let at):
            report(.press, at: at, into: &reports)
            report(.release, at: at, into: &reports)
            phase = .released
        case .stuck(let at):
            if case .holding(let since, let held) = phase {
                reports.append(GestureReport(.stuck(afterLongPress: held == .longPressed), at: at))
                phase = .holding(since: since, report: .stuck)
            }
        }
    }

    /// A chattering line has been quiet for `ChatterLimit.quiet`: gestures count again. A hold in progress
    /// began while chattering and reports nothing (as one held at start-up), a pending first press is dropped.
    mutating func chatterQuietReached(at instant: MonotonicInstant, into reports: inout [GestureReport]) {
        chatter.quietReached()
        reports.append(GestureReport(.chatterEnded, at: instant))
        switch phase {
        case .holding(let since, let held) where held != .stuck:
            phase = .holding(since: since, report: .silent)
        case .awaitingSecondPress:
            phase = .released
        case .holding, .released:
            break
        }
    }

    /// Reports a person's gesture, unless the line chatters: then it is nobody's and is dropped.
    private func report(_ gesture: ButtonGesture, at instant: MonotonicInstant, into reports: inout [GestureReport]) {
        guard !chatter.isChattering else { return }
        reports.append(GestureReport(gesture, at: instant))
    }
}
