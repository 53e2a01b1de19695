/// A reception report block (RFC 3550 §6.4.1): what one receiver observed about one source.
public struct ReportBlock: Hashable, Sendable {
    public var ssrc: UInt32
    /// Fraction lost since the last report, as a fixed-point number over 256.
    public var fractionLost: UInt8
    /// Cumulative packets lost; 24-bit signed on the wire (duplicates can make it negative).
    public var cumulativeLost: Int32
    public var extendedHighestSequenceNumber: UInt32
    /// Interarrival jitter in timestamp units (RFC 3550 §6.4.1, §A.8).
    public var jitter: UInt32
    /// Middle 32 bits of the NTP timestamp of the last SR received (LSR).
    public var lastSenderReport: UInt32
    /// Delay since that SR in units of 1/65536 s (DLSR).
    public var delaySinceLastSenderReport: UInt32

    public init(
        ssrc: UInt32, fractionLost: UInt8, cumulativeLost: Int32, extendedHighestSequenceNumber: UInt32,
        jitter: UInt32, lastSenderReport: UInt32, delaySinceLastSenderReport: UInt32
    ) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.extendedHighestSequenceNumber = extendedHighestSequenceNumber
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }

    static let length = 24
    static let cumulativeLostRange: ClosedRange<Int32> = -0x80_0000...0x7F_FFFF

    init(reading reader: inout ByteReader) throws(RTCPError) {
        let truncated = RTCPError.truncated(needed: Self.length, available: reader.remaining)
        ssrc = try reader.readUInt32(or: truncated)
        fractionLost = try reader.readUInt8(or: truncated)
        let lost = try reader.readUInt24(or: truncated)
        // Sign-extend the 24-bit field.
        cumulativeLost = Int32(bitPattern: lost << 8) >> 8
        extendedHighestSequenceNumber = try reader.readUInt32(or: truncated)
        jitter = try reader.readUInt32(or: truncated)
        lastSenderReport = try reader.readUInt32(or: truncated)
        delaySinceLastSenderReport = try reader.readUInt32(or: truncated)
    }

    func write(to bytes: inout [UInt8]) throws(RTCPError) {
        guard Self.cumulativeLostRange.contains(cumulativeLost) else { throw .fieldOutOfRange("cumulativeLost") }
        bytes.appendUInt32(ssrc)
        bytes.append(fractionLost)
        bytes.appendUInt24(UInt32(bitPattern: cumulativeLost) & 0xFF_FFFF)
        bytes.appendUInt32(extendedHighestSequenceNumber)
        bytes.appendUInt32(jitter)
        bytes.appendUInt32(lastSenderReport)
        bytes.appendUInt32(delaySinceLastSenderReport)
    }

    /// RC report blocks; the count must fit the body (an RC larger than the payload is an error).
    static func readBlocks(count: Int, packetType: UInt8, from reader: inout ByteReader) throws(RTCPError)
        -> [ReportBlock]
    {
        guard count * length <= reader.remaining else {
            throw .countOverrun(packetType: packetType, count: count, available: reader.remaining)
        }
        var blocks: [ReportBlock] = []
        for _ in 0..<count { blocks.append(try ReportBlock(reading: &reader)) }
        return blocks
    }
}
