/// A timing for a button, LED or relay outside the range this module accepts.
///
/// The ranges match what `intercomd check` accepts from the config file, so a checked config never throws.
public struct ControlsConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The setting's name, e.g. `debounce`.
    public let setting: String
    /// The rejected value.
    public let value: Duration
    /// The accepted values.
    public let allowed: ClosedRange<Duration>

    public init(setting: String, value: Duration, allowed: ClosedRange<Duration>) {
        self.setting = setting
        self.value = value
        self.allowed = allowed
    }

    public var description: String {
        "\(setting) is \(value), but must be between \(allowed.lowerBound) and \(allowed.upperBound)"
    }

    /// Returns `value` when `allowed` contains it, else throws.
    static func check(
        _ setting: String, _ value: Duration, in allowed: ClosedRange<Duration>
    ) throws(ControlsConfigurationError) -> Duration {
        guard allowed.contains(value) else {
            throw ControlsConfigurationError(setting: setting, value: value, allowed: allowed)
        }
        return value
    }
}
