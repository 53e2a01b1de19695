import ControlsCore

/// `milliseconds` after boot.
func ms(_ milliseconds: Int64) -> MonotonicInstant {
    MonotonicInstant(sinceBoot: .milliseconds(milliseconds))
}

extension MonotonicInstant {
    /// One nanosecond earlier.
    var justBefore: MonotonicInstant { self + .nanoseconds(-1) }
}

extension ButtonInterpreter {
    /// An edge read the moment it happened.
    mutating func edge(_ edge: ButtonEdge, at instant: MonotonicInstant) -> [GestureReport] {
        self.edge(edge, at: instant, receivedAt: instant)
    }

    /// A timer tick, keeping only the gestures.
    mutating func gestures(tickingAt instant: MonotonicInstant) -> [ButtonGesture] {
        tick(at: instant).map(\.gesture)
    }

    /// A clean contact closing at `start` and opening at `end`, each edge followed by a tick once it has
    /// settled; returns every gesture along the way.
    mutating func cleanPress(from start: MonotonicInstant, to end: MonotonicInstant) -> [ButtonGesture] {
        var gestures = edge(.rising, at: start).map(\.gesture)
        gestures += self.gestures(tickingAt: start + timing.debounce)
        gestures += edge(.falling, at: end).map(\.gesture)
        gestures += self.gestures(tickingAt: end + timing.debounce)
        return gestures
    }
}

/// A timing that cannot fail to build: the values are inside every range, which ButtonTimingTests check.
func timing(longPress: Bool = false, doublePress: Bool = false) -> ButtonTiming {
    try! ButtonTiming(reportsLongPress: longPress, reportsDoublePress: doublePress)
}
