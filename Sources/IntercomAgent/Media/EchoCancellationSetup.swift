import IntercomConfig
import Media

/// `[audio] echo_cancellation = true` as the pipeline builds it: the canceller's options and the delay hint
/// from the speaker thread handing a frame to ALSA to the microphone thread reading its echo.
public struct EchoCancellationSetup: Sendable, Equatable {
    public var options: EchoCancellerOptions
    public var streamDelay: Duration

    /// A played frame waits behind the full playback buffer (the speaker thread keeps it topped up), and its
    /// echo comes back inside a 20 ms capture read, half of which is on average already in the past:
    /// buffer + read. The library's delay estimation (on by default) refines it from there.
    public static let defaultStreamDelay: Duration = {
        let alsa = ALSAStreamConfiguration(device: "default")
        return alsa.periodDuration * alsa.periods + .milliseconds(20)
    }()

    public init(options: EchoCancellerOptions = .init(), streamDelay: Duration = Self.defaultStreamDelay) {
        self.options = options
        self.streamDelay = streamDelay
    }

    /// nil unless `[audio]` asks for echo cancellation and has both a microphone and a speaker to use it on.
    public init?(_ audio: AudioSettings) {
        guard audio.enabled, audio.echoCancellation, audio.playback != "none" else { return nil }
        var options = EchoCancellerOptions()
        options.suppression = switch audio.echoSuppression {
        case .low: .low
        case .moderate: .moderate
        case .high: .high
        }
        self.init(options: options, streamDelay: audio.echoDelay ?? Self.defaultStreamDelay)
    }
}
