/// PLI, PSFB (206) FMT 1 (RFC 4585 §6.3.1): the receiver lost picture data; send a keyframe.
public struct PictureLossIndication: Hashable, Sendable {
    public var senderSSRC: UInt32
    public var mediaSSRC: UInt32

    public init(senderSSRC: UInt32, mediaSSRC: UInt32) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
    }

    static let format: UInt8 = 1

    /// PLI has no FCI; anything after the SSRCs is ignored.
    init(body: inout ByteReader) throws(RTCPError) {
        (senderSSRC, mediaSSRC) = try readFeedbackSSRCs(&body)
    }

    func body() -> (count: Int, bytes: [UInt8]) {
        (Int(Self.format), feedbackHeader(senderSSRC, mediaSSRC))
    }
}

/// FIR, PSFB (206) FMT 4 (RFC 5104 §4.3.1): a keyframe request per SSRC with a command sequence number
/// the sender echoes to recognise repeats.
public struct FullIntraRequest: Hashable, Sendable {
    public var senderSSRC: UInt32
    /// RFC 5104 says 0; kept as received.
    public var mediaSSRC: UInt32
    public var entries: [Entry]

    public struct Entry: Hashable, Sendable {
        public var ssrc: UInt32
        public var sequenceNumber: UInt8

        public init(ssrc: UInt32, sequenceNumber: UInt8) {
            self.ssrc = ssrc
            self.sequenceNumber = sequenceNumber
        }
    }

    public init(senderSSRC: UInt32, mediaSSRC: UInt32 = 0, entries: [Entry]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.entries = entries
    }

    static let format: UInt8 = 4

    init(body: inout ByteReader) throws(RTCPError) {
        (senderSSRC, mediaSSRC) = try readFeedbackSSRCs(&body)
        guard body.remaining > 0 else { throw .emptyFeedback(packetType: 206, format: Self.format) }
        guard body.remaining % 8 == 0 else { throw .malformedFeedback(packetType: 206, format: Self.format) }
        entries = []
        while !body.isAtEnd {
            let ssrc = try body.readUInt32(or: RTCPError.truncated(needed: 8, available: 0))
            let sequence = try body.readUInt8(or: RTCPError.truncated(needed: 8, available: 0))
            try body.skip(3, or: RTCPError.truncated(needed: 8, available: 0))
            entries.append(Entry(ssrc: ssrc, sequenceNumber: sequence))
        }
    }

    func body() throws(RTCPError) -> (count: Int, bytes: [UInt8]) {
        guard !entries.isEmpty else { throw .emptyFeedback(packetType: 206, format: Self.format) }
        var bytes = feedbackHeader(senderSSRC, mediaSSRC)
        for entry in entries {
            bytes.appendUInt32(entry.ssrc)
            bytes.append(entry.sequenceNumber)
            bytes += [0, 0, 0]
        }
        return (Int(Self.format), bytes)
    }
}

/// REMB, PSFB (206) FMT 15 with identifier "REMB" (draft-alvestrand-rmcat-remb-03 §2.2): the receiver's
/// estimate of the total bitrate it can take, as mantissa · 2^exponent bits per second.
public struct ReceiverEstimatedMaxBitrate: Hashable, Sendable {
    public var senderSSRC: UInt32
    /// 6 bits.
    public var exponent: UInt8
    /// 18 bits.
    public var mantissa: UInt32
    /// The media sources the estimate covers.
    public var ssrcs: [UInt32]

    public init(senderSSRC: UInt32, exponent: UInt8, mantissa: UInt32, ssrcs: [UInt32]) {
        self.senderSSRC = senderSSRC
        self.exponent = exponent
        self.mantissa = mantissa
        self.ssrcs = ssrcs
    }

    /// The smallest exponent whose 18-bit mantissa holds `bitrate`; low bits are dropped (rounds down).
    public init(senderSSRC: UInt32, bitrate: UInt64, ssrcs: [UInt32]) {
        var exponent: UInt8 = 0
        while bitrate >> exponent > Self.maxMantissa { exponent += 1 }
        self.init(
            senderSSRC: senderSSRC, exponent: exponent, mantissa: UInt32(bitrate >> exponent), ssrcs: ssrcs)
    }

    static let maxMantissa: UInt64 = (1 << 18) - 1
    static let format: UInt8 = 15
    static let identifier: [UInt8] = Array("REMB".utf8)

    /// Bits per second, saturating at `UInt64.max` (exponent 63 with a large mantissa overflows).
    public var bitrate: UInt64 {
        let value = UInt64(mantissa)
        guard exponent < 64, value <= UInt64.max >> exponent else { return .max }
        return value << exponent
    }

    /// Returns nil when the application-layer feedback is not REMB.
    init?(body: inout ByteReader) throws(RTCPError) {
        let (sender, _) = try readFeedbackSSRCs(&body)
        guard body.remaining >= 8, body.peek(0) == 0x52, body.peek(1) == 0x45, body.peek(2) == 0x4D,
            body.peek(3) == 0x42
        else { return nil }
        try body.skip(4, or: RTCPError.truncated(needed: 4, available: 0))
        let count = Int(try body.readUInt8(or: RTCPError.truncated(needed: 1, available: 0)))
        let value = try body.readUInt24(or: RTCPError.truncated(needed: 3, available: 0))
        guard count * 4 == body.remaining else {
            throw .rembSSRCCountMismatch(declared: count, available: body.remaining)
        }
        var ssrcs: [UInt32] = []
        for _ in 0..<count { ssrcs.append(try body.readUInt32(or: RTCPError.truncated(needed: 4, available: 0))) }
        self.init(senderSSRC: sender, exponent: UInt8(value >> 18), mantissa: value & 0x3FFFF, ssrcs: ssrcs)
    }

    func body() throws(RTCPError) -> (count: Int, bytes: [UInt8]) {
        guard exponent < 64 else { throw .fieldOutOfRange("REMB exponent") }
        guard UInt64(mantissa) <= Self.maxMantissa else { throw .fieldOutOfRange("REMB mantissa") }
        guard ssrcs.count <= 255 else { throw .tooManyItems(ssrcs.count) }
        var bytes = feedbackHeader(senderSSRC, 0)
        bytes += Self.identifier
        bytes.append(UInt8(ssrcs.count))
        bytes.appendUInt24(UInt32(exponent) << 18 | mantissa)
        for ssrc in ssrcs { bytes.appendUInt32(ssrc) }
        return (Int(Self.format), bytes)
    }
}
