/// A clean, debounced reading of what a person did with a button.
///
/// Each hold of the button yields exactly one activation (`press`, `longPress` or, for the second hold of
/// a pair, `doublePress`) followed by exactly one `release`; the first hold of a double press yields
/// nothing. A hold that was already in progress when the interpreter started yields nothing at all.
///
/// The guards of `ButtonTiming` add three reports about the line rather than the person: `stuck` once per
/// hold that reaches `stuckThreshold` (followed by a `release` when the button finally goes up, even for a
/// hold that reported nothing before), and `chattering` … `chatterEnded` around a stretch in which every
/// activation and release is ignored.
public enum ButtonGesture: Equatable, Sendable {
    /// A short press (see `ButtonTiming` for when it is reported).
    case press
    /// Held for at least `ButtonTiming.longPressThreshold`; reported once, while still held.
    case longPress
    /// The second of two presses within `ButtonTiming.doublePressWindow`; reported when it is confirmed.
    case doublePress
    /// The button went up after one of the activations above, or after `stuck`.
    case release
    /// Held for `ButtonTiming.stuckThreshold`: no person holds a button that long. Nothing more is reported
    /// for this hold but its `release`. `afterLongPress`: this hold already reported `longPress`, which was
    /// therefore no person's either (the consumer undoes what it did).
    case stuck(afterLongPress: Bool)
    /// Presses came faster than `ButtonTiming.chatterLimit` allows: from now on gestures are ignored.
    case chattering
    /// The chattering line was quiet for `ChatterLimit.quiet`: gestures count again (a hold in progress
    /// reports nothing, as at start-up).
    case chatterEnded
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
