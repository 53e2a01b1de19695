import CWebRTCAudioProcessing

/// How the echo canceller is set up. The defaults are the research notes' (§5): high suppression, a
/// high-pass filter, and the extended filter plus delay estimation so a rough delay hint is enough.
public struct EchoCancellerOptions: Sendable, Equatable {
    public enum Suppression: Sendable, Equatable {
        /// Keeps more of a local talker during double talk, lets more residual echo through.
        case low
        case moderate
        /// Removes the most echo; a local talker over the caller is attenuated more.
        case high
    }

    public var suppression: Suppression = .high
    public var highPassFilter = true
    public var noiseSuppression = false
    /// A 128 ms adaptive filter instead of 48 ms: a room's echo tail and a wrong delay hint both fit.
    public var extendedFilter = true
    /// The library estimates the speaker-to-microphone delay itself; the hint is only a starting point.
    public var delayAgnostic = true

    public init() {}

    var shimOptions: intercom_apm_options {
        let level: Int32 = switch suppression {
        case .low: Int32(INTERCOM_APM_SUPPRESSION_LOW)
        case .moderate: Int32(INTERCOM_APM_SUPPRESSION_MODERATE)
        case .high: Int32(INTERCOM_APM_SUPPRESSION_HIGH)
        }
        return intercom_apm_options(
            suppression_level: level, high_pass_filter: highPassFilter ? 1 : 0,
            noise_suppression: noiseSuppression ? 1 : 0, extended_filter: extendedFilter ? 1 : 0,
            delay_agnostic: delayAgnostic ? 1 : 0)
    }
}
