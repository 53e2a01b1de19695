extension ButtonInterpreter {
    /// The timer step of the gesture in progress, if it has one.
    var gestureDeadline: GestureDeadline? {
        switch phase {
        case .holding(let since, let report):
            let stuck = timing.stuckThreshold.map { GestureDeadline.stuck(at: since + $0) }
            if report == .pending, timing.reportsLongPress {
                let longPress = since + timing.longPressThreshold
                if let stuck, stuck.at < longPress { return stuck }
                return .longPress(at: longPress)
            }
            return report == .stuck ? nil : stuck
        case .awaitingSecondPress(let firstPressAt):
            return .doublePressWindowCloses(at: firstPressAt + timing.doublePressWindow)
        case .released:
            return nil
        }
    }

    /// Handles every deadline due by `instant` in time order, then moves the clock to `instant`.
    ///
    /// At equal instants a long press or stuck comes before a debounced release (held exactly the threshold
    /// is a long press), a debounced press before the double-press window closes (exactly the window is a
    /// double press), and the end of chattering last. Without `trustingEdges` a due debounce confirmation is
    /// dropped unconfirmed.
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
            case .chatterQuiet(let at):
                latestInstant = at
                chatterQuietReached(at: at, into: &reports)
            }
        }
        latestInstant = instant
    }

    private enum Step {
        case settle(at: MonotonicInstant)
        case gesture(GestureDeadline)
        case chatterQuiet(at: MonotonicInstant)

        var at: MonotonicInstant {
            switch self {
            case .settle(let at), .chatterQuiet(let at): at
            case .gesture(let deadline): deadline.at
            }
        }

        /// Order among steps due at the same instant (`advance` documents why).
        var tieRank: Int {
            switch self {
            case .gesture(.longPress), .gesture(.stuck): 0
            case .settle: 1
            case .gesture(.doublePressWindowCloses): 2
            case .chatterQuiet: 3
            }
        }
    }

    /// The earliest step due by `instant`, ties ordered as `advance` documents.
    private func nextStep(by instant: MonotonicInstant) -> Step? {
        let due: [Step] = [
            settleDeadline.map { Step.settle(at: $0) },
            gestureDeadline.map { Step.gesture($0) },
            chatter.quietDeadline.map { Step.chatterQuiet(at: $0) },
        ].compactMap { $0 }.filter { $0.at <= instant }
        return due.min { ($0.at, $0.tieRank) < ($1.at, $1.tieRank) }
    }
}
