import Foundation
import IntercomPlatform
import Logging
import Media
import Synchronization
import WebRTCCore

/// The speaker: plays the caller's voice on an ALSA playback PCM from a thread of its own
/// (`snd_pcm_writei` blocks). One call's audio at a time: the first peer to `claim` it plays, others are
/// only measured, because two callers mixed into one small speaker help nobody at a door. The device is
/// opened for a claim and closed when it is released, so the speaker is free between calls.
///
/// The peer's Opus packets go through an `OpusJitterBuffer` (60 ms, reordering) and are decoded on the
/// speaker's thread every 20 ms: a lost packet is rebuilt from the next one's in-band FEC or concealed by
/// libopus (PLC), and silence plays while the buffer fills. A SIP call claims it for G.711 instead (PCMU or
/// PCMA, `SpeakerDecoder`): the same buffer orders its packets, a lost one plays as silence. With echo
/// cancellation on, every frame written (silence included, so the canceller's timeline has no holes) is
/// also its far end.
///
/// Spoken messages (`say`, `[audio] speak_messages`) are mixed into the claim's frames as they are written,
/// so the caller's voice keeps playing under them; they wait in a bounded buffer, and end with the claim.
public final class SpeakerPlayout: Sendable {
    public let sink: SpeakerSink
    private let echoCanceller: EchoCanceller?
    private let logger: Logger
    private let metrics: AgentMetrics?
    private let state = Mutex<State>(State())
    static let frameSamples = 960
    /// The most speech that may wait to be played: 60 s at 48 kHz.
    public static let speechCapacity = 48_000 * 60

    private struct State {
        var owner: UInt64?
        var nextClaim: UInt64 = 0
        var buffer = OpusJitterBuffer()
        var framesPlayed = 0
        var speech = SpeechBuffer()
    }

    /// What became of speech handed to `say`.
    public enum SpeechAdmission: Sendable, Equatable {
        case queued
        /// No call holds the speaker: there is nobody to say it to.
        case noCall
        /// More than `speechCapacity` samples would be waiting.
        case full
    }

    public init(sink: SpeakerSink, echoCanceller: EchoCanceller? = nil, metrics: AgentMetrics? = nil, logger: Logger) {
        self.sink = sink
        self.echoCanceller = echoCanceller
        self.metrics = metrics
        self.logger = logger
    }

    /// Takes the speaker for one peer; nil while another peer has it, or when there is no speaker. The
    /// peer's decoded packets also go to `meter` (its level in the call's log).
    /// `codec`: what the claim's packets are (Opus from a WebRTC peer, PCMU or PCMA from a SIP call).
    public func claim(meter: AudioLevelMeter? = nil, codec: SIPAudioCodec = .opus) -> UInt64? {
        guard case .alsa(let device, let configurationText) = sink else { return nil }
        let claim: UInt64? = state.withLock { state in
            guard state.owner == nil else { return nil }
            state.nextClaim += 1
            state.owner = state.nextClaim
            state.buffer = OpusJitterBuffer()
            state.speech = SpeechBuffer()
            return state.nextClaim
        }
        guard let claim else { return nil }
        NamedThread.start("intercom-speaker") { [self] in
            play(claim, device: device, configurationText: configurationText, meter: meter, codec: codec)
        }
        return claim
    }

    /// One of the claim's peer's Opus packets (mono, 48 kHz, 20 ms), with its RTP sequence number.
    public func enqueue(sequenceNumber: UInt16, opus payload: [UInt8], claim: UInt64) {
        enqueue(sequenceNumber: sequenceNumber, payload: payload, claim: claim)
    }

    /// One of the claim's packets in the claim's codec (20 ms each), with its RTP sequence number.
    public func enqueue(sequenceNumber: UInt16, payload: [UInt8], claim: UInt64) {
        state.withLock { state in
            guard state.owner == claim else { return }
            state.buffer.insert(sequenceNumber: sequenceNumber, payload: payload)
        }
    }

    /// Mixes `pcm` (mono, 48 kHz) into the current claim's playback after any speech still waiting.
    public func say(_ pcm: [Int16]) -> SpeechAdmission {
        state.withLock { state in
            guard state.owner != nil else { return .noCall }
            guard state.speech.waiting + pcm.count <= Self.speechCapacity else { return .full }
            state.speech.append(pcm)
            return .queued
        }
    }

    /// Gives the speaker back; the playing thread closes the device within a frame.
    public func release(_ claim: UInt64) {
        state.withLock { state in
            if state.owner == claim { state.owner = nil }
        }
    }

    /// Frames written to the device so far (the caller's, rebuilt, concealed and silence), for tests.
    public var framesPlayed: Int { state.withLock { $0.framesPlayed } }

    /// What the jitter buffer did for the current (or last) claim.
    public var playoutCounters: OpusJitterBuffer.Counters { state.withLock { $0.buffer.counters } }

    private func play(_ claim: UInt64, device: String, configurationText: String?, meter: AudioLevelMeter?,
                      codec: SIPAudioCodec) {
        var configuration = ALSAStreamConfiguration(device: device)
        configuration.sampleRate = 48_000
        configuration.channels = 1
        let stream: ALSAPCMStream
        var decoder: SpeakerDecoder
        do {
            stream = try ALSAPCMStream(.playback, configuration: configuration, configurationText: configurationText)
            decoder = try SpeakerDecoder(codec: codec)
        } catch {
            logger.error("speaker \(device) unavailable; the caller is not heard", metadata: ["error": "\(error)"])
            release(claim)
            return
        }
        var reportedXruns = 0
        var farEndFailed = false
        // A real device paces the loop (the write blocks while its buffer is full); a PCM that swallows
        // everything at once (`null`, `file`) is held to real time by this schedule instead.
        var schedule = MonotonicClock.now()
        while true {
            let (owned, playout, speech) = state.withLock { state -> (Bool, OpusJitterBuffer.Playout, ArraySlice<Int16>) in
                guard state.owner == claim else { return (false, .waiting, []) }
                return (true, state.buffer.next(), state.speech.take(Self.frameSamples))
            }
            guard owned else { break }
            let decoded = decoder.decode(playout)
            var pcm = decoded.pcm
            if decoded.heard { meter?.add(pcm) }
            if !speech.isEmpty { SpeechBuffer.mix(speech, into: &pcm) }
            if let echoCanceller, !farEndFailed {
                do {
                    try echoCanceller.analyzeFarEnd(pcm)
                } catch {
                    logger.error("echo cancellation lost its far end for this call", metadata: ["error": "\(error)"])
                    farEndFailed = true
                }
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
            schedule += .microseconds(pcm.count * 1_000_000 / 48_000)
            let now = MonotonicClock.now()
            if now < schedule - .milliseconds(40) {
                MonotonicClock.sleep(until: schedule - .milliseconds(40))
            } else if now > schedule + .milliseconds(200) {
                schedule = now  // a stall (suspend, overloaded board): do not try to catch up
            }
        }
    }
}
