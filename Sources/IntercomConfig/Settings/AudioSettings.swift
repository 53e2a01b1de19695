/// `[audio]`: ALSA devices for the microphone and the speaker (`capture = "tone"`: a 440 Hz test tone;
/// `playback = "none"`: the caller is not played).
public struct AudioSettings: Sendable, Equatable {
    public var enabled = true
    public var capture = "default"
    public var playback = "default"
    public var sampleRate = 48_000
    public var echoCancellation = false

    public init(enabled: Bool = true, capture: String = "default", playback: String = "default") {
        self.enabled = enabled
        self.capture = capture
        self.playback = playback
    }

    init(_ reader: ConfigReader?) {
        guard let reader else { return }
        enabled = reader.bool("enabled") ?? enabled
        capture = reader.text("capture", maxLength: 200) ?? capture
        playback = reader.text("playback", maxLength: 200) ?? playback
        if let rate = reader.integer("sample_rate", in: 1...384_000) {
            if [8000, 16000, 24000, 48000].contains(rate) {
                sampleRate = rate
            } else {
                reader.report("sample_rate", "must be 8000, 16000, 24000 or 48000 (rates Opus encodes), got \(rate)")
            }
        }
        echoCancellation = reader.bool("echo_cancellation") ?? echoCancellation
        reader.rejectUnknownKeys()
    }
}
