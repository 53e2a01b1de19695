/// SR: sender report, packet type 200 (RFC 3550 §6.4.1).
public struct SenderReport: Hashable, Sendable {
    public var ssrc: UInt32
    /// 64-bit NTP timestamp (seconds since 1900 in the high word, fraction in the low word).
    public var ntpTimestamp: UInt64
    /// The same instant in the stream's RTP clock, so the receiver can sync audio and video.
    public var rtpTimestamp: UInt32
    public var packetCount: UInt32
    public var octetCount: UInt32
    public var reports: [ReportBlock]
    /// Profile-specific extension words after the report blocks, kept opaque.
    public var profileExtension: [UInt8]

    public init(
        ssrc: UInt32, ntpTimestamp: UInt64, rtpTimestamp: UInt32, packetCount: UInt32, octetCount: UInt32,
        reports: [ReportBlock] = [], profileExtension: [UInt8] = []
    ) {
        self.ssrc = ssrc
        self.ntpTimestamp = ntpTimestamp
        self.rtpTimestamp = rtpTimestamp
        self.packetCount = packetCount
        self.octetCount = octetCount
        self.reports = reports
        self.profileExtension = profileExtension
    }

    static let packetType: UInt8 = 200

    init(count: Int, body: inout ByteReader) throws(RTCPError) {
        let truncated = RTCPError.truncated(needed: 24, available: body.remaining)
        ssrc = try body.readUInt32(or: truncated)
        ntpTimestamp = try body.readUInt64(or: truncated)
        rtpTimestamp = try body.readUInt32(or: truncated)
        packetCount = try body.readUInt32(or: truncated)
        octetCount = try body.readUInt32(or: truncated)
        reports = try ReportBlock.readBlocks(count: count, packetType: Self.packetType, from: &body)
        profileExtension = Array(body.readRest())
    }

    func body() throws(RTCPError) -> (count: Int, bytes: [UInt8]) {
        var bytes: [UInt8] = []
        bytes.appendUInt32(ssrc)
        bytes.appendUInt64(ntpTimestamp)
        bytes.appendUInt32(rtpTimestamp)
        bytes.appendUInt32(packetCount)
        bytes.appendUInt32(octetCount)
        for report in reports { try report.write(to: &bytes) }
        bytes += profileExtension
        return (reports.count, bytes)
    }
}

/// RR: receiver report, packet type 201 (RFC 3550 §6.4.2).
public struct ReceiverReport: Hashable, Sendable {
    public var ssrc: UInt32
    public var reports: [ReportBlock]
    public var profileExtension: [UInt8]

    public init(ssrc: UInt32, reports: [ReportBlock] = [], profileExtension: [UInt8] = []) {
        self.ssrc = ssrc
        self.reports = reports
        self.profileExtension = profileExtension
    }

    static let packetType: UInt8 = 201

    init(count: Int, body: inout ByteReader) throws(RTCPError) {
        let truncated = RTCPError.truncated(needed: 4, available: body.remaining)
        ssrc = try body.readUInt32(or: truncated)
        reports = try ReportBlock.readBlocks(count: count, packetType: Self.packetType, from: &body)
        profileExtension = Array(body.readRest())
    }

    func body() throws(RTCPError) -> (count: Int, bytes: [UInt8]) {
        var bytes: [UInt8] = []
        bytes.appendUInt32(ssrc)
        for report in reports { try report.write(to: &bytes) }
        bytes += profileExtension
        return (reports.count, bytes)
    }
}
