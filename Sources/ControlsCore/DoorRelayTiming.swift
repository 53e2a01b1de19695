/// How long the door relay is energized per opening, and how long it must rest between openings so a
/// strike's coil can cool and a stuck "open" button cannot buzz it continuously.
public struct DoorRelayTiming: Equatable, Sendable {
    /// How long one pulse energizes the relay.
    public let pulseLength: Duration
    /// The least time from the end of one pulse to the start of the next.
    public let minimumGap: Duration

    /// Accepted `pulseLength` values (as in the `gpio.door.pulse` config key).
    public static let pulseLengthRange: ClosedRange<Duration> = .milliseconds(100)...(.seconds(30))
    /// Accepted `minimumGap` values.
    public static let minimumGapRange: ClosedRange<Duration> = .zero...(.seconds(60))

    /// Defaults: a 3 s pulse (the config default) and 1 s of rest.
    public init(
        pulseLength: Duration = .seconds(3), minimumGap: Duration = .seconds(1)
    ) throws(ControlsConfigurationError) {
        self.pulseLength = try ControlsConfigurationError.check("pulseLength", pulseLength, in: Self.pulseLengthRange)
        self.minimumGap = try ControlsConfigurationError.check("minimumGap", minimumGap, in: Self.minimumGapRange)
    }

    private init(uncheckedPulse pulseLength: Duration, gap minimumGap: Duration) {
        self.pulseLength = pulseLength
        self.minimumGap = minimumGap
    }

    /// A 3 s pulse and 1 s of rest.
    public static let standard = DoorRelayTiming(uncheckedPulse: .seconds(3), gap: .seconds(1))
}
