import Media
import WebRTCCore

/// The microphone's 48 kHz frames as G.711 RTP packets (sans-IO): decimated to 8 kHz, 160 samples (20 ms)
/// per packet, the timestamp advancing 160 per packet (RFC 3551 §4.5.14, §4.2), one SSRC, the marker on
/// the first packet of the stream (RFC 3551 §4.1: the first packet of a talkspurt). The pipeline's Opus
/// frames are decoded to PCM first.
struct G711Packetizer: SIPAudioPacketizer {
    static let samplesPerPacket = 160
    let codec: SIPAudioCodec
    private var sequencer: RTPPacketSequencer
    private var timestamp: UInt32
    private var decimator = Decimator48To8()
    private var pending: [Int16] = []
    private var first = true
    private var opus: OpusDecoder?

    /// `ssrc`, `sequenceNumber` and `timestamp` start random in a call (RFC 3550 §5.1); tests fix them.
    init(codec: SIPAudioCodec, payloadType: UInt8, ssrc: UInt32 = .random(in: 0 ... .max),
         sequenceNumber: UInt16 = .random(in: 0 ... .max), timestamp: UInt32 = .random(in: 0 ... .max)) {
        precondition(codec != .opus, "G711Packetizer takes PCMU or PCMA")
        self.codec = codec
        sequencer = RTPPacketSequencer(ssrc: ssrc, payloadType: payloadType, initialSequenceNumber: sequenceNumber)
        self.timestamp = timestamp
    }

    var ssrc: UInt32 { sequencer.ssrc }

    /// The timestamp of the next packet: the stream's RTP time now, for an SR (RFC 3550 §6.4.1).
    var nextTimestamp: UInt32 { timestamp }

    mutating func packets(for frame: SIPMicrophoneFrame) -> [[UInt8]] {
        switch frame {
        case .pcm(let samples):
            return packets(for: samples)
        case .opus(let packet):
            if opus == nil { opus = try? OpusDecoder(sampleRate: 48_000, channels: 1) }
            guard let decoded = try? opus?.decode(packet) else { return [] }
            return packets(for: decoded)
        }
    }

    /// The packets (serialized) that `pcm` (mono, 48 kHz) completes: one per 20 ms of input.
    mutating func packets(for pcm: [Int16]) -> [[UInt8]] {
        pending += decimator.process(pcm)
        var datagrams: [[UInt8]] = []
        while pending.count >= Self.samplesPerPacket {
            let samples = pending.prefix(Self.samplesPerPacket)
            let payload = codec == .pcmu ? G711.muLaw(encoding: samples) : G711.aLaw(encoding: samples)
            pending.removeFirst(Self.samplesPerPacket)
            var packet = sequencer.packets(for: [payload], timestamp: timestamp, markLast: first)[0]
            packet.marker = first
            first = false
            timestamp &+= UInt32(Self.samplesPerPacket)
            // A 12-byte header and a 160-byte payload always serialize.
            if let bytes = try? packet.serialized() { datagrams.append(bytes) }
        }
        return datagrams
    }
}
