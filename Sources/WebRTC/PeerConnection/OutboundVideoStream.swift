import WebRTCCore

/// One outgoing VP8 stream (RFC 7741) of a peer connection, sans-IO: frames in, RTP packets out.
/// Random SSRC, first sequence number and PictureID come from the caller (RFC 3550 §5.1). Delta
/// frames are skipped until the first keyframe, because a receiver cannot decode them without it.
public struct OutboundVideoStream: Sendable {
    public private(set) var sequencer: RTPPacketSequencer
    public private(set) var packetizer: VP8Packetizer
    public private(set) var counters: SenderCounters
    public private(set) var framesSent: UInt64 = 0
    public private(set) var framesSkipped: UInt64 = 0
    public private(set) var awaitingKeyframe = true
    /// The abs-send-time extension id, when negotiated.
    public let absoluteSendTimeID: UInt8?

    public static let clockRate: UInt32 = 90_000

    /// - Parameter maxPacketSize: the whole SRTP datagram limit; the RTP header, the extension and the
    ///   largest SRTP tag (16 bytes for AES-GCM / 10 for HMAC-SHA1-80) are taken off it.
    public init(
        ssrc: UInt32, payloadType: UInt8, initialSequenceNumber: UInt16, initialPictureID: UInt16,
        absoluteSendTimeID: UInt8?, maxPacketSize: Int = 1200
    ) throws(PeerConnectionError) {
        sequencer = RTPPacketSequencer(ssrc: ssrc, payloadType: payloadType, initialSequenceNumber: initialSequenceNumber)
        let overhead = 12 + (absoluteSendTimeID == nil ? 0 : 8) + 16
        do {
            packetizer = try VP8Packetizer(
                maxPacketSize: maxPacketSize, headerOverhead: overhead, initialPictureID: initialPictureID)
        } catch {
            throw .packetization(call: "VP8Packetizer.init", detail: "\(error)")
        }
        counters = SenderCounters(ssrc: ssrc, clockRate: Self.clockRate)
        self.absoluteSendTimeID = absoluteSendTimeID
    }

    public var ssrc: UInt32 { sequencer.ssrc }

    /// The packets for `frame`, or an empty array when it was skipped (a delta before the first keyframe;
    /// the caller should then ask the encoder for a keyframe).
    public mutating func packets(for frame: OutgoingVideoFrame, now: Duration) throws(PeerConnectionError) -> [RTPPacket] {
        if awaitingKeyframe {
            guard frame.isKeyframe else {
                framesSkipped += 1
                return []
            }
            awaitingKeyframe = false
        }
        let payloads: [[UInt8]]
        do {
            payloads = try packetizer.packetize(frame.bytes)
        } catch {
            throw .packetization(call: "VP8Packetizer.packetize", detail: "\(error)")
        }
        framesSent += 1
        let headerExtension = absoluteSendTimeID.map { id in
            RTPHeaderExtension.oneByte([RTPHeaderExtensionElement(id: id, data: AbsoluteSendTime.value(monotonic: now))])
        }
        return sequencer.packets(
            for: payloads, timestamp: frame.rtpTimestamp, markLast: true, headerExtension: headerExtension)
    }

    public mutating func sent(_ packet: RTPPacket, wireLength: Int, now: Duration) {
        counters.sent(packet, wireLength: wireLength, now: now)
    }

    public mutating func retransmitted(wireLength: Int) {
        counters.retransmitted(wireLength: wireLength)
    }
}
