import Testing
import WebRTCCore

@Suite("Encoder feedback (one encoder: the slowest peer's rate, keyframes on request)")
struct EncoderFeedbackTests {
    @Test func withoutReportsTheEncoderRunsAtTheConfiguredRate() {
        let feedback = EncoderFeedback(minimumKbps: 150, maximumKbps: 800)
        #expect(feedback.targetKbps == 800)
        #expect(feedback.reportingPeerCount == 0)
    }

    @Test func theLowestPeerSetsTheRateWithHeadroom() {
        var feedback = EncoderFeedback(minimumKbps: 150, maximumKbps: 800)
        feedback.estimate(peer: 1, bitsPerSecond: 2_000_000)
        #expect(feedback.targetKbps == 760, "a fast peer cannot push the rate above the ceiling (less headroom)")
        feedback.estimate(peer: 2, bitsPerSecond: 400_000)
        #expect(feedback.targetKbps == 380, "400 kbit/s less 5 % headroom")
        feedback.estimate(peer: 1, bitsPerSecond: 300_000)
        #expect(feedback.targetKbps == 285, "a newer, lower estimate from another peer takes over")
        feedback.estimate(peer: 1, bitsPerSecond: 3_000_000)
        #expect(feedback.targetKbps == 380, "each peer's latest estimate counts, not its history")
        feedback.remove(peer: 2)
        #expect(feedback.targetKbps == 760)
    }

    @Test func aPeerThatLeavesNoLongerHoldsTheOthersBack() {
        var feedback = EncoderFeedback(minimumKbps: 150, maximumKbps: 800)
        feedback.estimate(peer: 1, bitsPerSecond: 600_000)
        feedback.estimate(peer: 2, bitsPerSecond: 200_000)
        #expect(feedback.targetKbps == 190)
        feedback.remove(peer: 2)
        #expect(feedback.targetKbps == 570)
        feedback.remove(peer: 1)
        #expect(feedback.targetKbps == 800)
        feedback.remove(peer: 7)  // unknown peers are ignored
        #expect(feedback.reportingPeerCount == 0)
    }

    @Test func estimatesBelowTheFloorAreClamped() {
        var feedback = EncoderFeedback(minimumKbps: 150, maximumKbps: 800)
        feedback.estimate(peer: 1, bitsPerSecond: 10_000)
        #expect(feedback.targetKbps == 150)
        feedback.estimate(peer: 1, bitsPerSecond: -5)
        #expect(feedback.targetKbps == 150)
    }

    @Test func lossReportsLowerThePeersRateBelowItsREMB() {
        var feedback = EncoderFeedback(minimumKbps: 150, maximumKbps: 800)
        feedback.estimate(peer: 1, bitsPerSecond: 800_000)
        #expect(feedback.targetKbps == 760)
        // 25 % loss (64/256): GCC §6 multiplies the loss-based rate by 1 − 0.5 × 0.25.
        feedback.lossReport(peer: 1, fractionLost: 64)
        #expect(feedback.targetKbps == Int(Double(700_000) * 0.95 / 1000))
        // The other peer is clean: the lossy one still sets the shared rate.
        feedback.estimate(peer: 2, bitsPerSecond: 800_000)
        #expect(feedback.targetKbps == 665)
        // A clean report grows the loss-based rate by 5 %, still under the REMB.
        feedback.lossReport(peer: 1, fractionLost: 0)
        #expect(feedback.targetKbps == Int(Double(735_000) * 0.95 / 1000))
    }

    @Test func aLossReportWithoutREMBStillCounts() {
        var feedback = EncoderFeedback(minimumKbps: 150, maximumKbps: 800)
        feedback.lossReport(peer: 1, fractionLost: 128)  // 50 % loss
        #expect(feedback.targetKbps == Int(Double(600_000) * 0.95 / 1000))
        #expect(feedback.reportingPeerCount == 1)
    }

    @Test func theFirstFrameAndEachRequestAreKeyframesOnce() {
        var feedback = EncoderFeedback(minimumKbps: 150, maximumKbps: 800)
        let first = feedback.takeKeyframeRequest()
        let second = feedback.takeKeyframeRequest()
        #expect(first, "the stream starts with a keyframe")
        #expect(!second)
        feedback.requestKeyframe()
        feedback.requestKeyframe()  // two requests before the next frame: one keyframe
        let requested = feedback.takeKeyframeRequest()
        let after = feedback.takeKeyframeRequest()
        #expect(requested)
        #expect(!after)
    }
}
