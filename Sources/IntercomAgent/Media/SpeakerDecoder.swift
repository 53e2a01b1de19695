import Media
import WebRTCCore

/// The speaker thread's decoder for one claim: Opus (a WebRTC peer) or G.711 (a SIP call, RFC 3551 PCMU 0 /
/// PCMA 8), turning the jitter buffer's playout into 48 kHz PCM. G.711 has no FEC, so a lost packet is
/// silence, fed through the interpolator so its filter history stays continuous.
struct SpeakerDecoder {
    private let codec: SIPAudioCodec
    private let opus: OpusDecoder?
    private var interpolator = Interpolator8To48()
    static let silence = [Int16](repeating: 0, count: SpeakerPlayout.frameSamples)

    init(codec: SIPAudioCodec) throws(Media.OpusError) {
        self.codec = codec
        opus = codec == .opus ? try OpusDecoder(sampleRate: 48_000, channels: 1) : nil
    }

    /// The frame to play and whether it is the peer's own audio (measured by the claim's meter).
    mutating func decode(_ playout: OpusJitterBuffer.Playout) -> (pcm: [Int16], heard: Bool) {
        if let opus {
            switch playout {
            case .packet(let payload): return ((try? opus.decode(payload)) ?? Self.silence, true)
            case .forwardErrorCorrection(let next): return ((try? opus.decode(next, fec: true)) ?? Self.silence, false)
            case .conceal: return ((try? opus.decode(nil)) ?? Self.silence, false)
            case .waiting: return (Self.silence, false)
            }
        }
        switch playout {
        case .packet(let payload):
            let linear = codec == .pcma ? G711.aLaw(decoding: payload) : G711.muLaw(decoding: payload)
            return (interpolator.process(linear), true)
        case .forwardErrorCorrection, .conceal:
            return (interpolator.process([Int16](repeating: 0, count: SpeakerPlayout.frameSamples / Interpolator8To48.factor)), false)
        case .waiting:
            return (Self.silence, false)
        }
    }
}
