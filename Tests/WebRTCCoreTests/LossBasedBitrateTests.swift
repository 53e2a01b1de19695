import Testing
import WebRTCCore

@Suite("Loss-based bitrate (draft-ietf-rmcat-gcc-02 §6)")
struct LossBasedBitrateTests {
    @Test func startsAtTheMaximumAndStaysThereOnACleanPath() {
        var rate = LossBasedBitrate(minimumBitsPerSecond: 150_000, maximumBitsPerSecond: 800_000)
        #expect(rate.bitsPerSecond == 800_000)
        for _ in 0..<5 { rate.report(fractionLost: 0) }
        #expect(rate.bitsPerSecond == 800_000, "never above the configured maximum")
    }

    @Test func heavyLossHalvesTheLossShareOffTheRate() {
        var rate = LossBasedBitrate(minimumBitsPerSecond: 150_000, maximumBitsPerSecond: 800_000)
        // 25 % lost (64/256): the rate is multiplied by 1 - 0.5 × 0.25 = 0.875.
        #expect(rate.report(fractionLost: 64) == 700_000)
        #expect(rate.report(fractionLost: 64) == 612_500)
    }

    @Test func moderateLossHoldsTheRate() {
        var rate = LossBasedBitrate(minimumBitsPerSecond: 150_000, maximumBitsPerSecond: 800_000)
        rate.report(fractionLost: 128)  // 50 %: down to 600 kbit/s
        #expect(rate.bitsPerSecond == 600_000)
        for lost: UInt8 in [6, 13, 25] { rate.report(fractionLost: lost) }  // 2.3 %, 5.1 %, 9.8 %
        #expect(rate.bitsPerSecond == 600_000, "2…10 % loss neither raises nor lowers it")
    }

    @Test func aCleanPathAfterLossGrowsFivePercentPerReport() {
        var rate = LossBasedBitrate(minimumBitsPerSecond: 150_000, maximumBitsPerSecond: 800_000)
        rate.report(fractionLost: 128)
        #expect(rate.report(fractionLost: 0) == 630_000)
        #expect(rate.report(fractionLost: 2) == 661_500, "under 2 % (2/256) counts as clean")
        for _ in 0..<10 { rate.report(fractionLost: 0) }
        #expect(rate.bitsPerSecond == 800_000)
    }

    @Test func neverBelowTheMinimum() {
        var rate = LossBasedBitrate(minimumBitsPerSecond: 150_000, maximumBitsPerSecond: 800_000)
        for _ in 0..<50 { rate.report(fractionLost: 255) }
        #expect(rate.bitsPerSecond == 150_000)
    }
}
