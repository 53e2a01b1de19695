import WebRTCCore

/// Reads fuzz bytes as a stream of RTP packets for the depacketizer: per packet a control byte
/// (bit 7 marker, bits 3–4 timestamp step, bits 0–2 sequence step, so gaps, duplicates and reordering by
/// wrap-around all occur), a length byte, then that many payload bytes (fewer at the end of the input).
struct PacketStream: Sequence, IteratorProtocol {
    private var bytes: ArraySlice<UInt8>
    private var sequenceNumber: UInt16 = 65530
    private var timestamp: UInt32 = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
    }

    mutating func next() -> RTPPacket? {
        guard bytes.count >= 2 else { return nil }
        let control = bytes.removeFirst()
        let length = Int(bytes.removeFirst())
        let payload = Array(bytes.prefix(length))
        bytes = bytes.dropFirst(length)
        sequenceNumber &+= UInt16(control & 0x07)
        timestamp &+= UInt32((control >> 3) & 0x03) * 3000
        return RTPPacket(
            marker: control & 0x80 != 0, payloadType: 96, sequenceNumber: sequenceNumber, timestamp: timestamp,
            ssrc: 1, payload: payload)
    }
}
