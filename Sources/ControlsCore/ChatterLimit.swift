/// When a button line counts as chattering: `presses` debounced presses within `window` are more than a
/// person makes on purpose (a corroded contact or a loose wire toggling the line). A chattering line's
/// gestures are ignored until it has been `quiet` (no edge at all) for that long.
///
/// The default, 8 presses in 2 s, catches a line toggling at 4 Hz or faster within 2 s; a person who
/// hammers a button that often has been heard at the first press.
public struct ChatterLimit: Equatable, Sendable {
    /// Presses within `window` that make a line chatter.
    public let presses: Int
    /// The span the presses are counted over.
    public let window: Duration
    /// Edge-free time after which a chattering line is believed again.
    public let quiet: Duration

    /// Accepted `window` values.
    public static let windowRange: ClosedRange<Duration> = .milliseconds(200)...(.seconds(60))
    /// Accepted `quiet` values.
    public static let quietRange: ClosedRange<Duration> = .milliseconds(500)...(.seconds(600))

    /// `presses` below 2 counts as 2: a single press is never chatter.
    public init(presses: Int = 8, window: Duration = .seconds(2), quiet: Duration = .seconds(10))
        throws(ControlsConfigurationError)
    {
        self.presses = max(2, presses)
        self.window = try ControlsConfigurationError.check("chatter window", window, in: Self.windowRange)
        self.quiet = try ControlsConfigurationError.check("chatter quiet", quiet, in: Self.quietRange)
    }

    private init(unchecked presses: Int, window: Duration, quiet: Duration) {
        self.presses = presses
        self.window = window
        self.quiet = quiet
    }

    /// 8 presses within 2 s; believed again after 10 s without an edge.
    public static let standard = ChatterLimit(unchecked: 8, window: .seconds(2), quiet: .seconds(10))
}
