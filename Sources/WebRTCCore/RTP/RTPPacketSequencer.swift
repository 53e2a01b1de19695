/// Per-stream sender state (RFC 3550 §5.1): SSRC, payload type and the next sequence number.
/// Payloaders produce payloads; this stamps them into packets.
public struct RTPPacketSequencer: Hashable, Sendable {
    public var ssrc: UInt32
    public var payloadType: UInt8
    /// Starts random per RFC 3550 §5.1; the caller supplies it so tests are deterministic.
    public private(set) var nextSequenceNumber: UInt16

    public init(ssrc: UInt32, payloadType: UInt8, initialSequenceNumber: UInt16) {
        self.ssrc = ssrc
        self.payloadType = payloadType
        self.nextSequenceNumber = initialSequenceNumber
    }

    /// One packet per payload, all with `timestamp`; the last carries `markLast` in its marker bit.
    public mutating func packets(
        for payloads: [[UInt8]], timestamp: UInt32, markLast: Bool,
        headerExtension: RTPHeaderExtension? = nil
    ) -> [RTPPacket] {
        payloads.enumerated().map { index, payload in
            defer { nextSequenceNumber &+= 1 }
            return RTPPacket(
                marker: markLast && index == payloads.count - 1, payloadType: payloadType,
                sequenceNumber: nextSequenceNumber, timestamp: timestamp, ssrc: ssrc,
                headerExtension: headerExtension, payload: payload)
        }
    }
}
