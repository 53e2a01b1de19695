/// Drives one LED through a `BlinkPattern`: sans-IO, a value. The GPIO layer sets the level from
/// `output(at:)` with `gpiod_line_set_value` and arms one timer for its `nextChange`.
public struct LEDDriver: Equatable, Sendable {
    /// The pattern shown.
    public private(set) var pattern: BlinkPattern
    /// Where the pattern's first period began.
    public private(set) var phaseStart: MonotonicInstant

    public init(pattern: BlinkPattern = .off, at start: MonotonicInstant) {
        self.pattern = pattern
        phaseStart = start
    }

    /// Shows `pattern` from `instant`, restarting its phase; showing the pattern already shown changes
    /// nothing. An instant before the current phase start counts as that start. Returns whether the
    /// pattern changed.
    @discardableResult
    public mutating func show(_ pattern: BlinkPattern, at instant: MonotonicInstant) -> Bool {
        guard pattern != self.pattern else { return false }
        self.pattern = pattern
        phaseStart = max(instant, phaseStart)
        return true
    }

    /// The level at `instant` and when it next changes. An instant before the phase start counts as
    /// the phase start.
    public func output(at instant: MonotonicInstant) -> LEDOutput {
        let segments = pattern.segments
        let instant = max(instant, phaseStart)
        guard segments.count > 1 else {
            return LEDOutput(isOn: segments[0].isOn, nextChange: nil)
        }
        let period = segments.reduce(Duration.zero) { $0 + $1.length }.attoseconds
        var position = (instant - phaseStart).attoseconds % period
        for segment in segments {
            let length = segment.length.attoseconds
            if position < length {
                return LEDOutput(isOn: segment.isOn, nextChange: instant + Duration(attoseconds: length - position))
            }
            position -= length
        }
        fatalError("a blink position \(position) beyond the period of \(pattern)")
    }
}

/// An LED's level and the instant it next changes (`nil`: never, while the pattern stays).
public struct LEDOutput: Equatable, Sendable {
    public let isOn: Bool
    public let nextChange: MonotonicInstant?

    public init(isOn: Bool, nextChange: MonotonicInstant?) {
        self.isOn = isOn
        self.nextChange = nextChange
    }
}
