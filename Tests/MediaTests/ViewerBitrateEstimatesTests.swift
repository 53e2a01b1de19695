import Media
import Testing

@Suite("Viewer bitrate estimates (one encoder, the slowest viewer's rate)")
struct ViewerBitrateEstimatesTests {
    @Test func withoutEstimatesTheEncoderRunsAtTheConfiguredRate() {
        let estimates = ViewerBitrateEstimates(minimumKbps: 150, maximumKbps: 800)
        #expect(estimates.targetKbps == 800)
        #expect(estimates.peerCount == 0)
    }

    @Test func theLowestViewerSetsTheRateWithHeadroom() {
        var estimates = ViewerBitrateEstimates(minimumKbps: 150, maximumKbps: 800)
        estimates.update(peer: 1, estimateBitsPerSecond: 2_000_000)
        #expect(estimates.targetKbps == 800, "a fast viewer cannot push the rate above the configured ceiling")
        estimates.update(peer: 2, estimateBitsPerSecond: 400_000)
        #expect(estimates.targetKbps == 380, "400 kbit/s less 5 % headroom")
        estimates.update(peer: 1, estimateBitsPerSecond: 300_000)
        #expect(estimates.targetKbps == 285, "a newer, lower estimate from another viewer takes over")
        estimates.update(peer: 1, estimateBitsPerSecond: 3_000_000)
        #expect(estimates.targetKbps == 380, "each viewer's latest estimate counts, not its history")
    }

    @Test func aViewerThatLeavesNoLongerHoldsTheOthersBack() {
        var estimates = ViewerBitrateEstimates(minimumKbps: 150, maximumKbps: 800)
        estimates.update(peer: 1, estimateBitsPerSecond: 600_000)
        estimates.update(peer: 2, estimateBitsPerSecond: 200_000)
        #expect(estimates.targetKbps == 190)
        estimates.remove(peer: 2)
        #expect(estimates.targetKbps == 570)
        estimates.remove(peer: 1)
        #expect(estimates.targetKbps == 800)
        estimates.remove(peer: 7)  // unknown peers are ignored
        #expect(estimates.peerCount == 0)
    }

    @Test func estimatesBelowTheFloorAreClamped() {
        var estimates = ViewerBitrateEstimates(minimumKbps: 150, maximumKbps: 800)
        estimates.update(peer: 1, estimateBitsPerSecond: 10_000)
        #expect(estimates.targetKbps == 150)
        estimates.update(peer: 1, estimateBitsPerSecond: -5)
        #expect(estimates.targetKbps == 150)
    }
}
