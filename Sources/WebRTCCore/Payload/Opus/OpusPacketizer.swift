/// Puts Opus packets into RTP (RFC 7587 §4): one Opus packet per RTP packet, a 48 kHz timestamp
/// whatever the encoder's internal rate (+960 per 20 ms), marker on the first packet of a talkspurt.
public struct OpusPacketizer: Hashable, Sendable {
    public private(set) var sequencer: RTPPacketSequencer
    /// The timestamp the next packet gets.
    public private(set) var nextTimestamp: UInt32

    public static let clockRate: UInt32 = 48000
    /// 20 ms at 48 kHz.
    public static let defaultFrameSamples: UInt32 = 960

    public init(ssrc: UInt32, payloadType: UInt8 = 111, initialSequenceNumber: UInt16, initialTimestamp: UInt32) {
        sequencer = RTPPacketSequencer(ssrc: ssrc, payloadType: payloadType, initialSequenceNumber: initialSequenceNumber)
        nextTimestamp = initialTimestamp
    }

    /// One RTP packet for one encoded Opus packet lasting `samples` (at 48 kHz).
    /// `startsTalkspurt` sets the marker after a DTX pause (RFC 7587 §4.2).
    public mutating func packetize(
        _ opusPacket: [UInt8], samples: UInt32 = defaultFrameSamples, startsTalkspurt: Bool = false,
        headerExtension: RTPHeaderExtension? = nil
    ) -> RTPPacket {
        var packets = sequencer.packets(
            for: [opusPacket], timestamp: nextTimestamp, markLast: startsTalkspurt, headerExtension: headerExtension)
        nextTimestamp &+= samples
        return packets.removeFirst()
    }

    /// Advances the clock over audio that was not sent (DTX), so the next timestamp stays true.
    public mutating func skip(samples: UInt32) {
        nextTimestamp &+= samples
    }
}
