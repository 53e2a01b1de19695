extension ButtonInterpreter {
    /// The timer step of the gesture in progress, if it has one.
    var gestureDeadline: GestureDeadline? {
        switch phase {
        case .holding(let since, .pending) where timing.reportsLongPress:
            .longPress(at: since + timing.longPressThreshold)
        case .awaitingSecondPress(let firstPressAt):
            .doublePressWindowCloses(at: firstPressAt + timing.doublePressWindow)
        case .released, .holding:
            nil
        }
    }

    /// Handles every deadline due by `instant` in time order, then moves the clock to `instant`.
    ///
    /// At equal instants a long press comes before a debounced release (held exactly the threshold is a
    /// long press), and a debounced press before the double-press window closes (exactly the window is a
    /// double press). Without `trustingEdges` a due debounce confirmation is dropped unconfirmed.
    mutating func advance(to instant: MonotonicInstant, trustingEdges: Bool, into reports: inout [GestureReport]) {
        while let step = nextStep(by: instant) {
            switch step {
            case .settle(let at):
                settleDeadline = nil
                latestInstant = at
                if trustingEdges, rawIsActive != isPressed {
                    isPressed = rawIsActive
                    if isPressed { pressConfirmed(at: at, into: &reports) } else { releaseConfirmed(at: at, into: &reports) }
                }
            case .gesture(let deadline):
                latestInstant = deadline.at
                deadlineReached(deadline, into: &reports)
            }
        }
        latestInstant = instant
    }

    private enum Step {
        case settle(at: MonotonicInstant)
        case gesture(GestureDeadline)
    }

    /// The earliest step due by `instant`, ties ordered as `advance` documents.
    private func nextStep(by instant: MonotonicInstant) -> Step? {
        let settle = settleDeadline.flatMap { $0 <= instant ? $0 : nil }
        let gesture = gestureDeadline.flatMap { $0.at <= instant ? $0 : nil }
        switch (settle, gesture) {
        case (nil, nil):
            return nil
        case (let settle?, nil):
            return .settle(at: settle)
        case (nil, let gesture?):
            return .gesture(gesture)
        case (let settle?, let gesture?):
            switch gesture {
            case .longPress(let at): return at <= settle ? .gesture(gesture) : .settle(at: settle)
            case .doublePressWindowCloses(let at): return at < settle ? .gesture(gesture) : .settle(at: settle)
            }
        }
    }
}
