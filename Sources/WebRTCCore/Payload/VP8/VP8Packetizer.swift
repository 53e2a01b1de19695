/// Splits encoded VP8 frames into RTP payloads (RFC 7741 §4): every packet carries X=1, I=1 and a
/// 15-bit PictureID (M=1); S=1 only on the first; the frame is split into near-equal parts so that
/// descriptor + data + `headerOverhead` stays within `maxPacketSize`.
///
/// Put the payloads into packets with `RTPPacketSequencer.packets(for:timestamp:markLast: true)`.
public struct VP8Packetizer: Hashable, Sendable {
    public let maxPacketSize: Int
    /// Bytes the RTP layer adds per packet: 12 for the fixed header, plus header extensions and the SRTP
    /// auth tag if the caller wants those counted.
    public let headerOverhead: Int
    /// The PictureID the next frame gets; wraps at 2^15.
    public private(set) var nextPictureID: UInt16

    static let descriptorLength = 4

    public init(maxPacketSize: Int = 1200, headerOverhead: Int = 12, initialPictureID: UInt16) throws(VP8Error) {
        guard headerOverhead >= 0, maxPacketSize - headerOverhead - Self.descriptorLength >= 1 else {
            throw .packetSizeTooSmall(maxPacketSize: maxPacketSize, headerOverhead: headerOverhead)
        }
        self.maxPacketSize = maxPacketSize
        self.headerOverhead = headerOverhead
        self.nextPictureID = initialPictureID & 0x7FFF
    }

    /// Largest VP8 data chunk per packet.
    public var maxDataPerPacket: Int { maxPacketSize - headerOverhead - Self.descriptorLength }

    /// RTP payloads (descriptor + data) for one encoded frame; the frame takes the next PictureID.
    public mutating func packetize(_ frame: ArraySlice<UInt8>) throws(VP8Error) -> [[UInt8]] {
        guard !frame.isEmpty else { throw .emptyFrame }
        let count = (frame.count + maxDataPerPacket - 1) / maxDataPerPacket
        let base = frame.count / count
        let larger = frame.count % count
        let pictureID = nextPictureID
        nextPictureID = (nextPictureID + 1) & 0x7FFF

        var payloads: [[UInt8]] = []
        payloads.reserveCapacity(count)
        var start = frame.startIndex
        for index in 0..<count {
            let size = base + (index < larger ? 1 : 0)
            let descriptor = VP8PayloadDescriptor(startOfPartition: index == 0, pictureID: .long(pictureID))
            var payload = descriptor.serialized()
            payload.reserveCapacity(Self.descriptorLength + size)
            payload += frame[start..<(start + size)]
            payloads.append(payload)
            start += size
        }
        return payloads
    }

    public mutating func packetize(_ frame: [UInt8]) throws(VP8Error) -> [[UInt8]] {
        try packetize(frame[...])
    }
}
