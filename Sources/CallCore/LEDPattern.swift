/// The status LED pattern for a state (SYSTEM.md §7). The GPIO layer owns the blink timings.
public enum LEDPattern: String, Equatable, Sendable, CaseIterable {
    /// Idle: one short blink every 5 s.
    case idle
    /// Ringing, or waiting for the callee of an outgoing call: 4 Hz.
    case ringing
    /// Connecting: 2 Hz.
    case connecting
    /// In a call: solid on.
    case inCall
    /// No backend: one long blink every 2 s.
    case offline
    /// A required device is missing: double blink.
    case fault
    /// Idle with do-not-disturb on: off.
    case off
}
