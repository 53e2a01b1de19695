import WebRTCCore

/// What RFC 3550 §6.4.1 asks a sender to report about one SSRC: packet and payload-octet counts, and an
/// RTP timestamp that matches the report's NTP time (extrapolated from the last packet sent, so the
/// receiver can map both streams onto one clock for lip sync).
public struct SenderCounters: Sendable, Equatable {
    public let ssrc: UInt32
    public let clockRate: UInt32
    public private(set) var packetCount: UInt32 = 0
    /// Payload octets only (no headers, no padding), as the SR field is defined.
    public private(set) var octetCount: UInt32 = 0
    /// Bytes put on the wire (SRTP packets, retransmissions included).
    public private(set) var wireBytes: UInt64 = 0
    public private(set) var retransmittedPackets: UInt64 = 0
    private var lastRTPTimestamp: UInt32?
    private var lastSendTime: Duration?

    public init(ssrc: UInt32, clockRate: UInt32) {
        self.ssrc = ssrc
        self.clockRate = clockRate
    }

    public mutating func sent(_ packet: RTPPacket, wireLength: Int, now: Duration) {
        packetCount &+= 1
        octetCount &+= UInt32(truncatingIfNeeded: packet.payload.count)
        wireBytes &+= UInt64(wireLength)
        lastRTPTimestamp = packet.timestamp
        lastSendTime = now
    }

    public mutating func retransmitted(wireLength: Int) {
        wireBytes &+= UInt64(wireLength)
        retransmittedPackets &+= 1
    }

    public var hasSent: Bool { lastRTPTimestamp != nil }

    /// The SR for `now` (monotonic) and `ntp` (the same instant on the wall clock), nil before the
    /// first packet (an SR needs a real RTP timestamp to anchor).
    public func senderReport(now: Duration, ntp: UInt64, reports: [ReportBlock] = []) -> SenderReport? {
        guard let lastRTPTimestamp, let lastSendTime else { return nil }
        let elapsed = max(.zero, now - lastSendTime)
        let (seconds, attoseconds) = elapsed.components
        let ticks = Double(seconds) * Double(clockRate) + Double(attoseconds) / 1e18 * Double(clockRate)
        let rtpTimestamp = lastRTPTimestamp &+ UInt32(truncatingIfNeeded: Int64(ticks))
        return SenderReport(
            ssrc: ssrc, ntpTimestamp: ntp, rtpTimestamp: rtpTimestamp, packetCount: packetCount,
            octetCount: octetCount, reports: reports)
    }
}
