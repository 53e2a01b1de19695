import Logging
import Media

extension MediaService {
    /// The canceller shared by the speaker (far end) and the microphone (near end), when the settings ask
    /// for one and both ends are real ALSA devices: a test tone has no room echo to remove, and without a
    /// speaker there is no reference. A library failure costs the cancellation, never the call's audio.
    static func makeEchoCanceller(_ settings: Settings, logger: Logger) -> EchoCanceller? {
        guard let setup = settings.echoCancellation else { return nil }
        guard case .alsa = settings.microphone, case .alsa = settings.speaker else {
            logger.notice("echo cancellation is off: it needs an ALSA microphone and speaker (\(settings.microphone), \(settings.speaker))")
            return nil
        }
        do {
            let canceller = try EchoCanceller(sampleRate: 48_000, streamDelay: setup.streamDelay, options: setup.options)
            logger.info("echo cancellation on", metadata: [
                "suppression": "\(setup.options.suppression)", "delay_hint": "\(setup.streamDelay)",
            ])
            return canceller
        } catch {
            logger.error("echo cancellation unavailable; the microphone is sent as captured", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
