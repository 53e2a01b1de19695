/// How one button is debounced and which gestures it distinguishes.
///
/// Every interval is measured between *debounced* transitions, each of which is confirmed one `debounce`
/// after the edge that began it; with a clean contact they equal the physical times.
///
/// When each activation is reported, i.e. the latency the choice costs:
///
/// | `reportsLongPress` | `reportsDoublePress` | `press` reported                                   |
/// |--------------------|----------------------|----------------------------------------------------|
/// | false              | false                | on press, `debounce` after the last bounce (30 ms)  |
/// | true               | false                | on release (a short press must not become a long one) |
/// | false or true      | true                 | `doublePressWindow` after the press (400 ms), or on release if held longer |
///
/// `longPress` comes `longPressThreshold` after the press, while the button is still held; `doublePress`
/// as soon as the second press is confirmed. The `accept` button wants `reportsLongPress` (long press
/// toggles do-not-disturb) and not `reportsDoublePress`, so answering waits only for the release.
///
/// Two guards for a device nobody watches, both off in `plain` and `withLongPress` (pure gesture
/// recognition) and both on in the agent (`GPIOLineRequests`): `stuckThreshold` ends a hold that no person
/// makes (water in the button, a jammed cap) with `stuck`, and `chatterLimit` silences a line whose presses
/// come faster than a person presses (a corroded contact, a loose wire).
public struct ButtonTiming: Equatable, Sendable {
    /// How long the level must stay unchanged after an edge before it is believed.
    public let debounce: Duration
    /// Whether holds of `longPressThreshold` or more are reported as `longPress` instead of `press`.
    public let reportsLongPress: Bool
    /// The shortest hold reported as `longPress`: held exactly this long counts.
    public let longPressThreshold: Duration
    /// Whether two presses whose starts are at most `doublePressWindow` apart are a `doublePress`.
    public let reportsDoublePress: Bool
    /// The longest time from the first press to the second one of a `doublePress`: exactly this counts.
    public let doublePressWindow: Duration
    /// A hold this long is no person: it is reported once as `stuck` and ignored until released. `nil`: never.
    public let stuckThreshold: Duration?
    /// Presses faster than this are a chattering line, whose gestures are ignored. `nil`: never.
    public let chatterLimit: ChatterLimit?

    /// Accepted `debounce` values (as in the `gpio.buttons.*.debounce` config key).
    public static let debounceRange: ClosedRange<Duration> = .zero...(.milliseconds(500))
    /// Accepted `longPressThreshold` values (as in the `gpio.buttons.*.long_press` config key).
    public static let longPressRange: ClosedRange<Duration> = .milliseconds(200)...(.seconds(10))
    /// Accepted `doublePressWindow` values.
    public static let doublePressRange: ClosedRange<Duration> = .milliseconds(50)...(.seconds(2))
    /// Accepted `stuckThreshold` values (as in the `gpio.stuck_after` config key): longer than any press a
    /// person means, up to an hour.
    public static let stuckRange: ClosedRange<Duration> = .seconds(3)...(.seconds(3_600))

    /// Defaults: 30 ms debounce, 2 s long press, 400 ms double-press window, both gestures off.
    public init(
        debounce: Duration = .milliseconds(30),
        reportsLongPress: Bool = false,
        longPressThreshold: Duration = .seconds(2),
        reportsDoublePress: Bool = false,
        doublePressWindow: Duration = .milliseconds(400),
        stuckThreshold: Duration? = nil,
        chatterLimit: ChatterLimit? = nil
    ) throws(ControlsConfigurationError) {
        self.debounce = try ControlsConfigurationError.check("debounce", debounce, in: Self.debounceRange)
        self.reportsLongPress = reportsLongPress
        self.longPressThreshold = try ControlsConfigurationError.check(
            "longPressThreshold", longPressThreshold, in: Self.longPressRange)
        self.reportsDoublePress = reportsDoublePress
        self.doublePressWindow = try ControlsConfigurationError.check(
            "doublePressWindow", doublePressWindow, in: Self.doublePressRange)
        if let stuckThreshold {
            self.stuckThreshold = try ControlsConfigurationError.check("stuckThreshold", stuckThreshold, in: Self.stuckRange)
        } else {
            self.stuckThreshold = nil
        }
        self.chatterLimit = chatterLimit
    }

    private init(unchecked reportsLongPress: Bool) {
        debounce = .milliseconds(30)
        self.reportsLongPress = reportsLongPress
        longPressThreshold = .seconds(2)
        reportsDoublePress = false
        doublePressWindow = .milliseconds(400)
        stuckThreshold = nil
        chatterLimit = nil
    }

    /// Defaults with neither long nor double press: `press` 30 ms after the contact settles.
    public static let plain = ButtonTiming(unchecked: false)
    /// Defaults with long press on, as the `accept` button needs.
    public static let withLongPress = ButtonTiming(unchecked: true)
}
