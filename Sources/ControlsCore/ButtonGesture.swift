/// A clean, debounced reading of what a person did with a button.
///
/// Each hold of the button yields exactly one activation (`press`, `longPress` or, for the second hold of
/// a pair, `doublePress`) followed by exactly one `release`; the first hold of a double press yields
/// nothing. A hold that was already in progress when the interpreter started yields nothing at all.
public enum ButtonGesture: Equatable, Sendable {
    /// A short press (see `ButtonTiming` for when it is reported).
    case press
    /// Held for at least `ButtonTiming.longPressThreshold`; reported once, while still held.
    case longPress
    /// The second of two presses within `ButtonTiming.doublePressWindow`; reported when it is confirmed.
    case doublePress
    /// The button went up after one of the activations above.
    case release
}

/// A gesture and the instant it was recognized (a debounce confirmation or a timer deadline).
public struct GestureReport: Equatable, Sendable, CustomStringConvertible {
    public let gesture: ButtonGesture
    public let at: MonotonicInstant

    public init(_ gesture: ButtonGesture, at: MonotonicInstant) {
        self.gesture = gesture
        self.at = at
    }

    public var description: String {
        "\(gesture) at \(at.sinceBoot)"
    }
}
