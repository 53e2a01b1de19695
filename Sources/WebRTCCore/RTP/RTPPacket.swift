/// An RTP packet (RFC 3550 §5.1): fixed header, CSRCs, optional header extension, payload, padding.
public struct RTPPacket: Hashable, Sendable {
    public var marker: Bool
    /// 7 bits (0...127).
    public var payloadType: UInt8
    public var sequenceNumber: UInt16
    public var timestamp: UInt32
    public var ssrc: UInt32
    /// At most 15 (the CC field is 4 bits).
    public var csrcs: [UInt32]
    public var headerExtension: RTPHeaderExtension?
    public var payload: [UInt8]
    /// Padding bytes at the end including the count byte (RFC 3550 §5.1 P bit); 0 means no padding.
    public var paddingLength: UInt8

    public init(
        marker: Bool = false, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32,
        csrcs: [UInt32] = [], headerExtension: RTPHeaderExtension? = nil, payload: [UInt8],
        paddingLength: UInt8 = 0
    ) {
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcs = csrcs
        self.headerExtension = headerExtension
        self.payload = payload
        self.paddingLength = paddingLength
    }

    static let fixedHeaderLength = 12

    /// Parses one RTP packet. The whole slice is the packet (one datagram after SRTP unprotect).
    public init(parsing bytes: ArraySlice<UInt8>) throws(RTPError) {
        let truncated = { (needed: Int) in RTPError.truncated(needed: needed, available: bytes.count) }
        var reader = ByteReader(bytes)
        let first = try reader.readUInt8(or: truncated(Self.fixedHeaderLength))
        guard first >> 6 == 2 else { throw .unsupportedVersion(first >> 6) }
        let second = try reader.readUInt8(or: truncated(Self.fixedHeaderLength))
        marker = second & 0x80 != 0
        payloadType = second & 0x7F
        sequenceNumber = try reader.readUInt16(or: truncated(Self.fixedHeaderLength))
        timestamp = try reader.readUInt32(or: truncated(Self.fixedHeaderLength))
        ssrc = try reader.readUInt32(or: truncated(Self.fixedHeaderLength))

        let csrcCount = Int(first & 0x0F)
        let csrcEnd = Self.fixedHeaderLength + 4 * csrcCount
        csrcs = []
        for _ in 0..<csrcCount { csrcs.append(try reader.readUInt32(or: truncated(csrcEnd))) }

        headerExtension = nil
        if first & 0x10 != 0 {
            let profile = try reader.readUInt16(or: truncated(csrcEnd + 4))
            let words = try reader.readUInt16(or: truncated(csrcEnd + 4))
            let declared = Int(words) * 4
            let available = reader.remaining
            let data = try reader.readBytes(
                declared, or: RTPError.extensionOverrun(declaredBytes: declared, available: available))
            headerExtension = try RTPHeaderExtension(profile: profile, data: data)
        }

        var body = reader.readRest()
        paddingLength = 0
        if first & 0x20 != 0 {
            let count = Int(body.last ?? 0)
            guard count >= 1, count <= body.count else { throw .invalidPadding(count: count, available: body.count) }
            paddingLength = UInt8(count)
            body = body.dropLast(count)
        }
        payload = Array(body)
    }

    public init(parsing bytes: [UInt8]) throws(RTPError) {
        try self.init(parsing: bytes[...])
    }

    /// The packet on the wire. Padding bytes are zero except the final count byte.
    public func serialized() throws(RTPError) -> [UInt8] {
        guard payloadType <= 127 else { throw .payloadTypeOutOfRange(payloadType) }
        guard csrcs.count <= 15 else { throw .tooManyCSRCs(csrcs.count) }
        let extensionBlock = try headerExtension?.serialized()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.fixedHeaderLength + 4 * csrcs.count + payload.count + Int(paddingLength) + 64)
        var first: UInt8 = 2 << 6 | UInt8(csrcs.count)
        if paddingLength > 0 { first |= 0x20 }
        if extensionBlock != nil { first |= 0x10 }
        bytes.append(first)
        bytes.append((marker ? 0x80 : 0) | payloadType)
        bytes.appendUInt16(sequenceNumber)
        bytes.appendUInt32(timestamp)
        bytes.appendUInt32(ssrc)
        for csrc in csrcs { bytes.appendUInt32(csrc) }
        if let extensionBlock {
            bytes.appendUInt16(extensionBlock.profile)
            bytes.appendUInt16(UInt16(extensionBlock.data.count / 4))
            bytes += extensionBlock.data
        }
        bytes += payload
        if paddingLength > 0 {
            bytes += repeatElement(0, count: Int(paddingLength) - 1)
            bytes.append(paddingLength)
        }
        return bytes
    }
}
