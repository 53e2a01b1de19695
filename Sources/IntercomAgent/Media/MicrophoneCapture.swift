import IntercomPlatform
import Logging
import Media

/// The microphone on the pipeline's audio thread: 20 ms of ALSA capture per Opus frame, the device paces
/// the loop. A microphone that cannot be opened, or is lost (a USB microphone unplugged), is retried every
/// `reopenInterval` while silence is sent in real time, so a call keeps its audio stream and the caller
/// hears the device again as soon as it is back. Each failure streak is logged once. With an echo canceller,
/// captured frames leave without the speaker's echo.
final class MicrophoneCapture {
    let device: String
    let configurationText: String?
    let samplesPerFrame: Int
    let echoCanceller: EchoCanceller?
    let logger: Logger
    static let reopenInterval: Duration = .seconds(5)

    private var stream: ALSAPCMStream?
    private var lastAttempt: Duration?
    private var failing = false
    private var silentDeadline: Duration?
    private var reportedXruns = 0
    private var cancellationFailed = false

    init(device: String, configurationText: String?, samplesPerFrame: Int, echoCanceller: EchoCanceller? = nil,
         logger: Logger) {
        self.device = device
        self.configurationText = configurationText
        self.samplesPerFrame = samplesPerFrame
        self.echoCanceller = echoCanceller
        self.logger = logger
    }

    /// The next 20 ms: captured, or silence paced by the clock while the device is unavailable.
    /// `xruns` is the number of overruns the device had since the previous call.
    func next() -> (pcm: [Int16], xruns: Int) {
        if stream == nil { open() }
        if let stream {
            do {
                let pcm = try stream.read(frames: samplesPerFrame)
                let xruns = stream.xrunCount - reportedXruns
                reportedXruns = stream.xrunCount
                if pcm.count == samplesPerFrame { return (withoutEcho(pcm), xruns) }
                fail("the capture stream ended")
            } catch {
                fail("\(error)")
            }
        }
        let now = MonotonicClock.now()
        let deadline = max(silentDeadline ?? now, now - .milliseconds(100)) + .milliseconds(20)
        silentDeadline = deadline
        MonotonicClock.sleep(until: deadline)
        return ([Int16](repeating: 0, count: samplesPerFrame), 0)
    }

    /// A canceller that fails once is not asked again: the microphone goes out as captured.
    private func withoutEcho(_ pcm: [Int16]) -> [Int16] {
        guard let echoCanceller, !cancellationFailed else { return pcm }
        do {
            return try echoCanceller.processNearEnd(pcm)
        } catch {
            logger.error("echo cancellation failed; the microphone is sent as captured", metadata: ["error": "\(error)"])
            cancellationFailed = true
            return pcm
        }
    }

    private func open() {
        let now = MonotonicClock.now()
        if let lastAttempt, now - lastAttempt < Self.reopenInterval { return }
        lastAttempt = now
        do {
            var configuration = ALSAStreamConfiguration(device: device)
            configuration.sampleRate = 48_000
            configuration.channels = 1
            stream = try ALSAPCMStream(.capture, configuration: configuration, configurationText: configurationText)
            reportedXruns = 0
            silentDeadline = nil
            if failing { logger.notice("microphone \(device) is back") }
            failing = false
        } catch {
            if !failing {
                logger.error("microphone \(device) unavailable; sending silence and retrying every 5 s",
                             metadata: ["error": "\(error)"])
            }
            failing = true
        }
    }

    private func fail(_ reason: String) {
        stream = nil
        if !failing { logger.error("microphone \(device) lost; sending silence and retrying", metadata: ["error": "\(reason)"]) }
        failing = true
    }
}
