import WebRTCCore

/// One outgoing Opus stream (RFC 7587) of a peer connection, sans-IO: one Opus packet in, one RTP packet
/// out, timestamps on the 48 kHz clock whatever the encoder's rate.
public struct OutboundAudioStream: Sendable {
    public private(set) var packetizer: OpusPacketizer
    public private(set) var counters: SenderCounters
    public let absoluteSendTimeID: UInt8?
    private var startedTalkspurt = false

    public init(
        ssrc: UInt32, payloadType: UInt8, initialSequenceNumber: UInt16, initialTimestamp: UInt32,
        absoluteSendTimeID: UInt8?
    ) {
        packetizer = OpusPacketizer(
            ssrc: ssrc, payloadType: payloadType, initialSequenceNumber: initialSequenceNumber,
            initialTimestamp: initialTimestamp)
        counters = SenderCounters(ssrc: ssrc, clockRate: OpusPacketizer.clockRate)
        self.absoluteSendTimeID = absoluteSendTimeID
    }

    public var ssrc: UInt32 { packetizer.sequencer.ssrc }

    /// The RTP packet for one Opus packet of `samples` 48 kHz samples; the very first one is marked as
    /// the start of a talkspurt (RFC 7587 §4.2).
    public mutating func packet(for opus: [UInt8], samples: UInt32, now: Duration) -> RTPPacket {
        let headerExtension = absoluteSendTimeID.map { id in
            RTPHeaderExtension.oneByte([RTPHeaderExtensionElement(id: id, data: AbsoluteSendTime.value(monotonic: now))])
        }
        defer { startedTalkspurt = true }
        return packetizer.packetize(
            opus, samples: samples, startsTalkspurt: !startedTalkspurt, headerExtension: headerExtension)
    }

    public mutating func sent(_ packet: RTPPacket, wireLength: Int, now: Duration) {
        counters.sent(packet, wireLength: wireLength, now: now)
    }
}
