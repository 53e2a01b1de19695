/// What the `sip-rtp` thread sends the microphone with: the negotiated codec's packetizer (`G711Packetizer`
/// or `SIPOpusPacketizer`), serialized RTP packets out of microphone frames (sans-IO).
protocol SIPAudioPacketizer {
    var ssrc: UInt32 { get }
    /// The timestamp of the next packet: the stream's RTP time now, for an SR (RFC 3550 §6.4.1).
    var nextTimestamp: UInt32 { get }
    /// The packets `frame` completes (none while a 20 ms packet is still filling).
    mutating func packets(for frame: SIPMicrophoneFrame) -> [[UInt8]]
}
