import IntercomPlatform
import Logging
import Media
import Synchronization

/// `[audio] speak_messages`: says a text the device received in a call on its speaker, for callers who
/// cannot speak. espeak-ng synthesizes it on the speech thread (`SpeechSynthesizer`), it is resampled to the
/// speaker's 48 kHz and mixed into the call's playback (`SpeakerPlayout.say`); nothing here waits, so the
/// coordinator and the call's audio never do. At most `maximumWaiting` messages wait for synthesis; more are
/// dropped with a log line. A library that cannot start is logged once, as an error; the agent goes on.
public final class MessageSpeaker: Sendable {
    public static let defaultMaximumWaiting = 4

    private let speaker: SpeakerPlayout
    private let voice: String
    private let limit: Int
    private let maximumWaiting: Int
    private let synthesizer: SpeechSynthesizer
    private let metrics: AgentMetrics?
    private let logger: Logger
    private let waiting = Atomic<Int>(0)
    private let failureLogged = Atomic<Bool>(false)
    private let spoken = Atomic<Int>(0)

    public init(speaker: SpeakerPlayout, voice: String = "en", limit: Int = SpeechText.defaultLimit,
                maximumWaiting: Int = defaultMaximumWaiting, synthesizer: SpeechSynthesizer = .shared,
                metrics: AgentMetrics? = nil, logger: Logger) {
        self.speaker = speaker
        self.voice = voice
        self.limit = limit
        self.maximumWaiting = maximumWaiting
        self.synthesizer = synthesizer
        self.metrics = metrics
        self.logger = logger
    }

    /// Messages mixed into the speaker so far (for tests).
    public var spokenCount: Int { spoken.load(ordering: .relaxed) }

    /// Starts espeak-ng and loads the voice now, in the background, so a missing espeak-ng-data or an unknown
    /// voice is logged when the agent starts rather than at the first message, which then comes out sooner.
    public func prepare() {
        synthesizer.synthesize("", voice: voice, limit: limit) { [self] result in
            if case .failure(let error) = result { failed(error, id: nil) }
        }
    }

    /// Queues message `id`'s `text` to be spoken; returns at once.
    public func speak(_ text: String, id: String) {
        guard waiting.add(1, ordering: .relaxed).newValue <= maximumWaiting else {
            waiting.subtract(1, ordering: .relaxed)
            logger.warning("message \(id) not spoken: \(maximumWaiting) messages already wait to be spoken")
            metrics?.messageNotSpoken(reason: "busy")
            return
        }
        synthesizer.synthesize(text, voice: voice, limit: limit) { [self] result in
            waiting.subtract(1, ordering: .relaxed)
            switch result {
            case .success(let audio): play(audio, id: id)
            case .failure(let error): failed(error, id: id)
            }
        }
    }

    /// On the speech thread: the message's samples to the speaker.
    private func play(_ audio: SpokenAudio, id: String) {
        guard !audio.samples.isEmpty else { return }
        let pcm = LinearResampler.resample(audio.samples, from: audio.sampleRate, to: 48_000)
        switch speaker.say(pcm) {
        case .queued:
            spoken.add(1, ordering: .relaxed)
            metrics?.messageSpoken()
            logger.info("speaking message \(id): \(audio.duration.wholeMilliseconds) ms of speech, synthesized in \(audio.synthesisTime.wholeMilliseconds) ms")
        case .noCall:
            logger.notice("message \(id) not spoken: no call holds the speaker")
            metrics?.messageNotSpoken(reason: "no_call")
        case .full:
            logger.warning("message \(id) not spoken: a minute of speech already waits for the speaker")
            metrics?.messageNotSpoken(reason: "full")
        }
    }

    private func failed(_ error: SpeechError, id: String?) {
        if id != nil { metrics?.messageNotSpoken(reason: "failed") }
        if !failureLogged.exchange(true, ordering: .relaxed) {
            logger.error("messages cannot be spoken (espeak-ng: is espeak-ng-data installed, and voice \"\(voice)\" in it?)",
                         metadata: ["error": "\(error)"])
        } else {
            logger.debug("message \(id ?? "(warm-up)") not spoken", metadata: ["error": "\(error)"])
        }
    }
}
