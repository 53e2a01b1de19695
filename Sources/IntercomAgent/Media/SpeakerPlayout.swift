import Dispatch
import Foundation
import Logging
import Media
import Synchronization

/// The speaker: plays the caller's decoded voice on an ALSA playback PCM from a thread of its own
/// (`snd_pcm_writei` blocks). One call's audio at a time: the first peer to `claim` it plays, others are
/// only measured, because two callers mixed into one small speaker help nobody at a door. The device is
/// opened for a claim and closed when it is released, so the speaker is free between calls.
///
/// Frames wait in a queue of at most `maximumQueue` (200 ms; the oldest go first when the network bursts).
/// When none arrived for 20 ms a frame of silence is written, so a late packet is a short gap rather
/// than an ALSA underrun.
public final class SpeakerPlayout: Sendable {
    public let sink: SpeakerSink
    private let logger: Logger
    private let metrics: AgentMetrics?
    private let state = Mutex<State>(State())
    private let arrived = DispatchSemaphore(value: 0)
    static let maximumQueue = 10
    static let frameSamples = 960

    private struct State {
        var owner: UInt64?
        var nextClaim: UInt64 = 0
        var queue: [[Int16]] = []
        var framesPlayed = 0
    }

    public init(sink: SpeakerSink, metrics: AgentMetrics? = nil, logger: Logger) {
        self.sink = sink
        self.metrics = metrics
        self.logger = logger
    }

    /// Takes the speaker for one peer; nil while another peer has it, or when there is no speaker.
    public func claim() -> UInt64? {
        guard case .alsa(let device, let configurationText) = sink else { return nil }
        let claim: UInt64? = state.withLock { state in
            guard state.owner == nil else { return nil }
            state.nextClaim += 1
            state.owner = state.nextClaim
            state.queue.removeAll()
            return state.nextClaim
        }
        guard let claim else { return nil }
        let thread = Thread { [self] in play(claim, device: device, configurationText: configurationText) }
        thread.name = "intercom-speaker"
        thread.start()
        return claim
    }

    /// 20 ms of mono 48 kHz PCM from the claim's peer.
    public func enqueue(_ pcm: [Int16], claim: UInt64) {
        let accepted = state.withLock { state in
            guard state.owner == claim else { return false }
            if state.queue.count >= Self.maximumQueue { state.queue.removeFirst() }
            state.queue.append(pcm)
            return true
        }
        if accepted { arrived.signal() }
    }

    /// Gives the speaker back; the playing thread closes the device within a frame.
    public func release(_ claim: UInt64) {
        let released = state.withLock { state in
            guard state.owner == claim else { return false }
            state.owner = nil
            return true
        }
        if released { arrived.signal() }
    }

    /// Frames written to the device so far (the caller's and silence), for tests.
    public var framesPlayed: Int { state.withLock { $0.framesPlayed } }

    private func play(_ claim: UInt64, device: String, configurationText: String?) {
        var configuration = ALSAStreamConfiguration(device: device)
        configuration.sampleRate = 48_000
        configuration.channels = 1
        let stream: ALSAPCMStream
        do {
            stream = try ALSAPCMStream(.playback, configuration: configuration, configurationText: configurationText)
        } catch {
            logger.error("speaker \(device) unavailable; the caller is not heard", metadata: ["error": "\(error)"])
            release(claim)
            return
        }
        let silence = [Int16](repeating: 0, count: Self.frameSamples)
        var reportedXruns = 0
        while true {
            let (owned, frame) = state.withLock { state -> (Bool, [Int16]?) in
                (state.owner == claim, state.queue.isEmpty ? nil : state.queue.removeFirst())
            }
            guard owned else { break }
            let pcm: [Int16]
            if let frame {
                pcm = frame
            } else if arrived.wait(timeout: .now() + .milliseconds(20)) == .success {
                continue
            } else {
                pcm = silence
            }
            do {
                try stream.write(pcm)
            } catch {
                logger.error("speaker \(device) failed; the caller is not heard for the rest of the call",
                             metadata: ["error": "\(error)"])
                release(claim)
                break
            }
            state.withLock { $0.framesPlayed += 1 }
            if stream.xrunCount > reportedXruns {
                metrics?.audioXruns(stream.xrunCount - reportedXruns, direction: "playback")
                reportedXruns = stream.xrunCount
            }
        }
    }
}
