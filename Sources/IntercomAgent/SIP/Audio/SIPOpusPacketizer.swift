import Media
import WebRTCCore

/// The microphone's Opus as RTP for a SIP call (RFC 7587 §4, sans-IO). The pipeline's packets (`AudioFanOut`,
/// 48 kHz mono, 20 ms) go out as they are, no decode and no re-encode: one Opus packet per RTP packet, the
/// 48 kHz timestamp (§4.1, whatever the encoder's rate) advancing by the packet's own duration read from its
/// TOC (RFC 6716 §3.1; 960 for 20 ms), the marker on the first packet of the stream (§4.2). PCM frames (a
/// scripted microphone) are encoded here with the pipeline's settings.
struct SIPOpusPacketizer: SIPAudioPacketizer {
    private var packetizer: OpusPacketizer
    private var first = true
    private var encoder: OpusEncoder?
    private var pending: [Int16] = []
    static let samplesPerFrame = 960

    /// `ssrc`, `sequenceNumber` and `timestamp` start random in a call (RFC 3550 §5.1); tests fix them.
    init(payloadType: UInt8, ssrc: UInt32 = .random(in: 0 ... .max), sequenceNumber: UInt16 = .random(in: 0 ... .max),
         timestamp: UInt32 = .random(in: 0 ... .max)) {
        packetizer = OpusPacketizer(ssrc: ssrc, payloadType: payloadType, initialSequenceNumber: sequenceNumber,
                                    initialTimestamp: timestamp)
    }

    var ssrc: UInt32 { packetizer.sequencer.ssrc }
    var nextTimestamp: UInt32 { packetizer.nextTimestamp }

    mutating func packets(for frame: SIPMicrophoneFrame) -> [[UInt8]] {
        switch frame {
        case .opus(let packet):
            return packetize(packet).map { [$0] } ?? []
        case .pcm(let samples):
            if encoder == nil { encoder = try? OpusEncoder(configuration: OpusConfiguration()) }
            guard let encoder else { return [] }
            pending += samples
            var datagrams: [[UInt8]] = []
            while pending.count >= Self.samplesPerFrame {
                let frame = Array(pending.prefix(Self.samplesPerFrame))
                pending.removeFirst(Self.samplesPerFrame)
                if let packet = try? encoder.encode(frame), let datagram = packetize(packet) { datagrams.append(datagram) }
            }
            return datagrams
        }
    }

    /// Nil for bytes that are not an Opus packet (RFC 6716 §3.4): the peer's decoder would only fail on them.
    private mutating func packetize(_ packet: [UInt8]) -> [UInt8]? {
        guard let info = try? OpusPacketInfo(validating: packet), info.durationSamples > 0 else { return nil }
        let rtp = packetizer.packetize(packet, samples: UInt32(info.durationSamples), startsTalkspurt: first)
        first = false
        return try? rtp.serialized()
    }
}
