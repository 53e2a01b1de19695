/// What one LED shows, as a repeating waveform (SYSTEM.md §7). Each period starts with the LED on, so a
/// change of pattern is visible at once.
///
/// | Pattern      | Waveform, from the start of each period                         | Period |
/// |--------------|-----------------------------------------------------------------|--------|
/// | `off`, `dnd` | off                                                             | –      |
/// | `on`, `inCall` | on                                                            | –      |
/// | `idle`       | on 100 ms, off 4900 ms (one short blink every 5 s)              | 5 s    |
/// | `ringing`    | on 125 ms, off 125 ms (4 Hz)                                    | 250 ms |
/// | `connecting` | on 250 ms, off 250 ms (2 Hz)                                    | 500 ms |
/// | `offline`    | on 1 s, off 1 s (one long blink every 2 s)                      | 2 s    |
/// | `fault`      | on 100 ms, off 200 ms, on 100 ms, off 1600 ms (double blink)    | 2 s    |
public enum BlinkPattern: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Always off.
    case off
    /// Always on.
    case on
    /// Idle: one short blink every 5 s.
    case idle
    /// Ringing: 4 Hz.
    case ringing
    /// Connecting: 2 Hz.
    case connecting
    /// In a call: solid on.
    case inCall
    /// No backend: one long blink every 2 s.
    case offline
    /// A required device is missing: a double blink every 2 s.
    case fault
    /// Do-not-disturb: off.
    case dnd

    /// One period of the waveform. A single segment means the LED never changes, and its length is moot.
    public var segments: [BlinkSegment] {
        switch self {
        case .off, .dnd:
            [BlinkSegment(isOn: false, length: .seconds(1))]
        case .on, .inCall:
            [BlinkSegment(isOn: true, length: .seconds(1))]
        case .idle:
            [.on(.milliseconds(100)), .off(.milliseconds(4_900))]
        case .ringing:
            [.on(.milliseconds(125)), .off(.milliseconds(125))]
        case .connecting:
            [.on(.milliseconds(250)), .off(.milliseconds(250))]
        case .offline:
            [.on(.seconds(1)), .off(.seconds(1))]
        case .fault:
            [.on(.milliseconds(100)), .off(.milliseconds(200)), .on(.milliseconds(100)), .off(.milliseconds(1_600))]
        }
    }
}

/// A stretch of a blink waveform during which the LED keeps one level.
public struct BlinkSegment: Equatable, Sendable {
    public let isOn: Bool
    public let length: Duration

    public init(isOn: Bool, length: Duration) {
        self.isOn = isOn
        self.length = length
    }

    static func on(_ length: Duration) -> BlinkSegment { BlinkSegment(isOn: true, length: length) }
    static func off(_ length: Duration) -> BlinkSegment { BlinkSegment(isOn: false, length: length) }
}
