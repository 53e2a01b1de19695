/// `[audio]`: ALSA devices for the microphone and the speaker (`capture = "tone"`: a 440 Hz test tone;
/// `playback = "none"`: the caller is not played), and echo cancellation for speaker-and-microphone boxes.
public struct AudioSettings: Sendable, Equatable {
    /// How hard the echo canceller suppresses what its filter leaves: `high` removes the most echo and
    /// ducks the person at the door most while the caller talks; `low` the reverse.
    public enum EchoSuppression: String, Sendable, CaseIterable { case low, moderate, high }

    public var enabled = true
    public var capture = "default"
    public var playback = "default"
    public var sampleRate = 48_000
    public var echoCancellation = false
    public var echoSuppression = EchoSuppression.high
    /// Speaker-to-microphone delay hint; nil: derived from the ALSA buffer sizes the agent opens.
    public var echoDelay: Duration?
    /// `speak_messages`: say the texts a caller sends during a call on the speaker (espeak-ng), for
    /// callers who cannot speak.
    public var speakMessages = false
    /// `speak_voice`: the espeak-ng voice the texts are said in ("en", "de", "en-us", "en+f3").
    public var speakVoice = "en"

    /// Whether texts are spoken: asked for, and there is a speaker.
    public var speaksMessages: Bool { speakMessages && enabled && playback != "none" }

    public init(enabled: Bool = true, capture: String = "default", playback: String = "default",
                echoCancellation: Bool = false) {
        self.enabled = enabled
        self.capture = capture
        self.playback = playback
        self.echoCancellation = echoCancellation
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
        echoSuppression = reader.choice("echo_suppression") ?? echoSuppression
        // The library clamps hints above 500 ms; a longer path is not an echo it can cancel anyway.
        echoDelay = reader.duration("echo_delay", in: .zero ... .milliseconds(500))
        speakMessages = reader.bool("speak_messages") ?? speakMessages
        if let voice = reader.text("speak_voice", maxLength: 40) {
            if !voice.isEmpty, voice.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || "0123456789-+_".unicodeScalars.contains($0)) }) {
                speakVoice = voice
            } else {
                reader.report("speak_voice", "must be an espeak-ng voice name such as \"en\", \"de\" or \"en-us\", got \"\(voice)\"")
            }
        }
        if speakMessages, enabled, playback == "none" {
            reader.report("speak_messages", "needs a speaker to speak on, but playback = \"none\"")
        }
        // The canceller needs what the speaker plays as its reference: without a speaker there is no echo.
        if echoCancellation, enabled, playback == "none" {
            reader.report("echo_cancellation", "needs a speaker to cancel, but playback = \"none\"")
        }
        reader.rejectUnknownKeys()
    }
}
