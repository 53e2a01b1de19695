/// One synthesized message: mono 16-bit PCM at espeak-ng's rate (22050 Hz for its own voices), and what
/// the synthesis cost.
public struct SpokenAudio: Sendable, Equatable {
    public var samples: [Int16]
    public var sampleRate: Int
    /// The text as spoken (after `SpeechText.clean`).
    public var text: String
    /// Wall time the speech thread spent synthesizing it.
    public var synthesisTime: Duration

    public var duration: Duration { .seconds(Double(samples.count) / Double(max(sampleRate, 1))) }
}
