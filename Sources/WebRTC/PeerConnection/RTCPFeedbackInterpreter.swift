import WebRTCCore

/// What an inbound RTCP compound asks of the sender (sans-IO): which retransmissions, whether a keyframe,
/// the peer's bandwidth estimate, and its reception reports about our streams.
public enum RTCPFeedbackAction: Sendable, Equatable {
    /// Generic NACK for our video SSRC (RFC 4585 §6.2.1): resend these from the history.
    case retransmit([UInt16])
    case keyframe(KeyframeRequestReason)
    /// REMB (draft-alvestrand-rmcat-remb) covering one of our SSRCs, bit/s.
    case bitrateEstimate(UInt64)
    case receptionReport(MediaKind, ReportBlock)
    /// The peer's SR for one of its SSRCs (we keep LSR for our receiver reports).
    case senderReport(ssrc: UInt32, ntpTimestamp: UInt64)
    /// RTCP BYE for one of the peer's SSRCs.
    case goodbye(ssrcs: [UInt32])
}

/// Turns parsed RTCP packets into `RTCPFeedbackAction`s for our video and audio SSRCs. Keeps the last
/// FIR sequence number per requester, because a repeated FIR with the same number is a retransmission
/// of the same request (RFC 5104 §4.3.1.1) and must not cost another keyframe.
public struct RTCPFeedbackInterpreter: Sendable, Equatable {
    public let videoSSRC: UInt32?
    public let audioSSRC: UInt32?
    private var lastFIRSequence: [UInt32: UInt8] = [:]

    public init(videoSSRC: UInt32?, audioSSRC: UInt32?) {
        self.videoSSRC = videoSSRC
        self.audioSSRC = audioSSRC
    }

    public mutating func actions(for packets: [RTCPPacket]) -> [RTCPFeedbackAction] {
        var actions: [RTCPFeedbackAction] = []
        for packet in packets {
            switch packet {
            case let .senderReport(report):
                actions.append(.senderReport(ssrc: report.ssrc, ntpTimestamp: report.ntpTimestamp))
                actions += reportActions(report.reports)
            case let .receiverReport(report):
                actions += reportActions(report.reports)
            case let .nack(nack) where nack.mediaSSRC == videoSSRC:
                let lost = nack.lostSequenceNumbers
                if !lost.isEmpty { actions.append(.retransmit(lost)) }
            case let .pictureLossIndication(pli) where pli.mediaSSRC == videoSSRC:
                actions.append(.keyframe(.pictureLoss))
            case let .fullIntraRequest(fir):
                for entry in fir.entries where entry.ssrc == videoSSRC {
                    if lastFIRSequence[fir.senderSSRC] != entry.sequenceNumber {
                        lastFIRSequence[fir.senderSSRC] = entry.sequenceNumber
                        actions.append(.keyframe(.fullIntraRequest))
                    }
                }
            case let .receiverEstimatedMaxBitrate(remb):
                if remb.ssrcs.isEmpty || remb.ssrcs.contains(where: { $0 == videoSSRC || $0 == audioSSRC }) {
                    actions.append(.bitrateEstimate(remb.bitrate))
                }
            case let .goodbye(bye):
                actions.append(.goodbye(ssrcs: bye.ssrcs))
            default:
                break
            }
        }
        return actions
    }

    private func reportActions(_ blocks: [ReportBlock]) -> [RTCPFeedbackAction] {
        blocks.compactMap { block in
            if block.ssrc == videoSSRC { return .receptionReport(.video, block) }
            if block.ssrc == audioSSRC { return .receptionReport(.audio, block) }
            return nil
        }
    }
}
