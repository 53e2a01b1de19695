/// The device's two LEDs, `status` and `ringing`, driven from one state pattern (SYSTEM.md §7).
///
/// | State pattern           | `status` LED     | `ringing` LED          |
/// |-------------------------|------------------|------------------------|
/// | `ringing`               | `ringing` (4 Hz) | `ringing` (4 Hz, in phase) |
/// | `connecting`            | `connecting`     | `on`                   |
/// | `inCall`                | `inCall` (on)    | `on`                   |
/// | `on`                    | `on`             | `on` (lamp test)       |
/// | anything else           | the same pattern | `off`                  |
///
/// So the status LED always shows the state, and the ringing LED, next to the accept button, says "a
/// call wants you" while ringing and "the line is open" from answering to hang-up.
///
/// A button that is stuck or chatters (`flagsButtonFault`) shows on the ringing LED where it would be off:
/// the `fault` double blink, so someone at the door sees that the buttons are not working.
public struct IndicatorPanel: Equatable, Sendable {
    public private(set) var status: LEDDriver
    public private(set) var ringing: LEDDriver
    /// The state pattern shown, kept to re-derive the ringing LED when the button flag changes.
    public private(set) var state: BlinkPattern
    /// Whether a button is stuck or chatters.
    public private(set) var flagsButtonFault = false

    public init(showing state: BlinkPattern = .off, at start: MonotonicInstant) {
        let patterns = Self.patterns(for: state)
        self.state = state
        status = LEDDriver(pattern: patterns.status, at: start)
        ringing = LEDDriver(pattern: patterns.ringing, at: start)
    }

    /// What each LED shows for a state pattern (the table above).
    public static func patterns(for state: BlinkPattern) -> IndicatorPatterns {
        switch state {
        case .ringing: IndicatorPatterns(status: .ringing, ringing: .ringing)
        case .connecting: IndicatorPatterns(status: .connecting, ringing: .on)
        case .inCall: IndicatorPatterns(status: .inCall, ringing: .on)
        case .on: IndicatorPatterns(status: .on, ringing: .on)
        case .off, .idle, .offline, .fault, .dnd: IndicatorPatterns(status: state, ringing: .off)
        }
    }

    /// Shows `state` from `instant`; an LED whose own pattern changes restarts its phase, the other
    /// keeps blinking undisturbed.
    public mutating func show(_ state: BlinkPattern, at instant: MonotonicInstant) {
        self.state = state
        let patterns = Self.patterns(for: state, buttonFault: flagsButtonFault)
        status.show(patterns.status, at: instant)
        ringing.show(patterns.ringing, at: instant)
    }

    /// A button became stuck or chattering (`true`), or every button works again, at `instant`.
    public mutating func flagButtonFault(_ flagged: Bool, at instant: MonotonicInstant) {
        flagsButtonFault = flagged
        show(state, at: instant)
    }

    /// The table above, with a faulty button's double blink on a ringing LED that would be off.
    public static func patterns(for state: BlinkPattern, buttonFault: Bool) -> IndicatorPatterns {
        let patterns = patterns(for: state)
        guard buttonFault, patterns.ringing == .off else { return patterns }
        return IndicatorPatterns(status: patterns.status, ringing: .fault)
    }

    /// Both LEDs' levels at `instant`, and the next instant either changes, for the caller's one timer.
    public func output(at instant: MonotonicInstant) -> IndicatorOutput {
        IndicatorOutput(status: status.output(at: instant), ringing: ringing.output(at: instant))
    }
}

/// The pattern of each LED.
public struct IndicatorPatterns: Equatable, Sendable {
    public let status: BlinkPattern
    public let ringing: BlinkPattern

    public init(status: BlinkPattern, ringing: BlinkPattern) {
        self.status = status
        self.ringing = ringing
    }
}

/// Both LEDs' outputs.
public struct IndicatorOutput: Equatable, Sendable {
    public let status: LEDOutput
    public let ringing: LEDOutput

    public init(status: LEDOutput, ringing: LEDOutput) {
        self.status = status
        self.ringing = ringing
    }

    /// The earliest change of either LED, `nil` if neither will change.
    public var nextChange: MonotonicInstant? {
        [status.nextChange, ringing.nextChange].compactMap { $0 }.min()
    }
}
