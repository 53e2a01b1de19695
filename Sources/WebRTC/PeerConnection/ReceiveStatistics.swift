import WebRTCCore

/// Reception statistics of one incoming SSRC for RTCP receiver reports (RFC 3550 §6.4.1, algorithms of
/// appendix A.3 for loss and A.8 for interarrival jitter). Sans-IO: arrival times are inputs.
public struct ReceiveStatistics: Sendable, Equatable {
    public let ssrc: UInt32
    public let clockRate: UInt32
    private var unwrapper = SequenceNumberUnwrapper()
    private var baseSequence: Int64?
    private var highestSequence: Int64 = 0
    public private(set) var packetsReceived: UInt64 = 0
    public private(set) var payloadBytesReceived: UInt64 = 0
    private var expectedPrior: Int64 = 0
    private var receivedPrior: UInt64 = 0
    /// Jitter in timestamp units, kept as a Double (A.8 keeps it scaled by 16 in integers).
    public private(set) var jitter: Double = 0
    private var lastTransit: Int64?
    private var lastSenderReport: (middle: UInt32, arrival: Duration)?

    public init(ssrc: UInt32, clockRate: UInt32) {
        self.ssrc = ssrc
        self.clockRate = clockRate
    }

    public static func == (lhs: ReceiveStatistics, rhs: ReceiveStatistics) -> Bool {
        lhs.ssrc == rhs.ssrc && lhs.packetsReceived == rhs.packetsReceived && lhs.jitter == rhs.jitter
            && lhs.highestSequence == rhs.highestSequence
    }

    /// One packet arrived at `arrival` (any monotonic clock).
    public mutating func received(_ packet: RTPPacket, arrival: Duration) {
        let extended = unwrapper.unwrap(packet.sequenceNumber)
        if baseSequence == nil {
            baseSequence = extended
            highestSequence = extended
        }
        highestSequence = max(highestSequence, extended)
        packetsReceived += 1
        payloadBytesReceived += UInt64(packet.payload.count)
        // A.8: transit = arrival (in RTP units) - timestamp; D = |transit - previous transit|.
        let (seconds, attoseconds) = arrival.components
        let arrivalTicks = seconds * Int64(clockRate) + Int64(Double(attoseconds) / 1e18 * Double(clockRate))
        let transit = arrivalTicks &- Int64(packet.timestamp)
        if let lastTransit {
            var difference = transit &- lastTransit
            // Timestamps are 32-bit: fold a wrap back into range.
            difference = Int64(Int32(truncatingIfNeeded: difference))
            jitter += (Double(abs(difference)) - jitter) / 16
        }
        lastTransit = transit
    }

    /// The peer's sender report for this SSRC arrived at `arrival` (for LSR/DLSR, RFC 3550 §6.4.1).
    public mutating func receivedSenderReport(ntpTimestamp: UInt64, arrival: Duration) {
        lastSenderReport = (NTPTime.middle32(ntpTimestamp), arrival)
    }

    /// Packets lost so far (expected minus received, A.3); may be negative with duplicates.
    public var cumulativeLost: Int64 {
        guard let baseSequence else { return 0 }
        return (highestSequence - baseSequence + 1) - Int64(packetsReceived)
    }

    /// The report block for an RR/SR sent at `now`; starts a new interval for `fractionLost`.
    public mutating func makeReportBlock(now: Duration) -> ReportBlock? {
        guard let baseSequence else { return nil }
        let expected = highestSequence - baseSequence + 1
        let expectedInterval = expected - expectedPrior
        let receivedInterval = Int64(packetsReceived) - Int64(receivedPrior)
        expectedPrior = expected
        receivedPrior = packetsReceived
        let lostInterval = expectedInterval - receivedInterval
        let fraction: UInt8 = expectedInterval <= 0 || lostInterval <= 0
            ? 0 : UInt8(clamping: (lostInterval << 8) / expectedInterval)
        let lost = Int32(clamping: min(max(cumulativeLost, -0x80_0000), 0x7F_FFFF))
        let (lsr, dlsr): (UInt32, UInt32) = lastSenderReport.map { ($0.middle, NTPTime.units65536(now - $0.arrival)) }
            ?? (0, 0)
        return ReportBlock(
            ssrc: ssrc, fractionLost: fraction, cumulativeLost: lost,
            extendedHighestSequenceNumber: UInt32(truncatingIfNeeded: highestSequence),
            jitter: UInt32(jitter.rounded()), lastSenderReport: lsr, delaySinceLastSenderReport: dlsr)
    }
}
