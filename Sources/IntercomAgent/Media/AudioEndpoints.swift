/// Where the call's outgoing audio comes from (`[audio] capture`).
public enum MicrophoneSource: Sendable, Equatable, CustomStringConvertible {
    /// An ALSA capture PCM (`default`, `hw:1,0`, `plughw:CARD=Device`); `configurationText`, when given, is
    /// an ALSA configuration the name is looked up in instead of the system's (tests use the `file` PCM).
    case alsa(device: String, configurationText: String? = nil)
    /// A sine tone (`capture = "tone"` is 440 Hz, `"tone:880"` another pitch): the demo, boards without a
    /// microphone under test, and two devices that must tell each other's sound apart.
    case testTone(hertz: Double = 440)
    /// Silence (`[audio] enabled = false`).
    case silence

    public var description: String {
        switch self {
        case .alsa(let device, _): "microphone \(device)"
        case .testTone(let hertz): "\(Int(hertz)) Hz test tone as the microphone"
        case .silence: "no microphone (silence)"
        }
    }
}

/// Where the caller's voice is played (`[audio] playback`).
public enum SpeakerSink: Sendable, Equatable, CustomStringConvertible {
    case alsa(device: String, configurationText: String? = nil)
    /// Decoded and measured, not played (`playback = "none"`, or `[audio] enabled = false`).
    case none

    public var description: String {
        switch self {
        case .alsa(let device, _): "speaker \(device)"
        case .none: "no speaker"
        }
    }
}
