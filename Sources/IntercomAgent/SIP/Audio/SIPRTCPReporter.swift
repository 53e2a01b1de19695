import WebRTC
import WebRTCCore

/// The RTCP of a SIP call's audio (sans-IO, RFC 3550 §6): reception statistics of the peer's stream, and
/// every interval one compound report for the peer — SR while we send (RR otherwise) with a report block
/// on its stream, then SDES CNAME (§6.1: every compound carries one).
struct SIPRTCPReporter {
    let ssrc: UInt32
    let cname: String
    private var statistics: ReceiveStatistics?

    init(ssrc: UInt32, cname: String) {
        self.ssrc = ssrc
        self.cname = cname
    }

    /// One of the peer's audio packets arrived (a new SSRC starts new statistics, §8.2).
    mutating func received(_ packet: RTPPacket, arrival: Duration) {
        if statistics?.ssrc != packet.ssrc { statistics = ReceiveStatistics(ssrc: packet.ssrc, clockRate: 8000) }
        statistics?.received(packet, arrival: arrival)
    }

    /// One datagram on the RTCP port: whether it is RTCP. The peer's SR feeds LSR/DLSR (§6.4.1).
    mutating func received(rtcp datagram: ArraySlice<UInt8>, arrival: Duration) -> Bool {
        guard let packets = try? RTCPPacket.parseCompound(datagram) else { return false }
        for case .senderReport(let report) in packets where report.ssrc == statistics?.ssrc {
            statistics?.receivedSenderReport(ntpTimestamp: report.ntpTimestamp, arrival: arrival)
        }
        return true
    }

    /// The compound report to send now. `sent` counts our RTP packets and payload octets so far;
    /// `rtpTimestamp` is our stream's timestamp for this instant.
    mutating func report(now: Duration, ntpTimestamp: UInt64, sentPackets: Int, sentOctets: Int, rtpTimestamp: UInt32) -> [UInt8] {
        let blocks = statistics?.makeReportBlock(now: now).map { [$0] } ?? []
        let first: RTCPPacket = sentPackets > 0
            ? .senderReport(SenderReport(ssrc: ssrc, ntpTimestamp: ntpTimestamp, rtpTimestamp: rtpTimestamp,
                                         packetCount: UInt32(truncatingIfNeeded: sentPackets),
                                         octetCount: UInt32(truncatingIfNeeded: sentOctets), reports: blocks))
            : .receiverReport(ReceiverReport(ssrc: ssrc, reports: blocks))
        let packets = [first, .sourceDescription(.cname(cname, ssrc: ssrc))]
        return packets.flatMap { (try? $0.serialized()) ?? [] }
    }
}
