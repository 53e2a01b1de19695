import IntercomPlatform
import Testing

@Suite struct LogRateLimiterTests {
    typealias Suppression = LogRateLimiter.Suppression

    @Test func linesOverTheBudgetAreDroppedAndSummarizedWhenTheNextWindowOpens() {
        var limiter = LogRateLimiter(linesPerWindow: 3)
        let decisions = (0..<8).map { limiter.admit(label: "media", at: .seconds($0)) }
        #expect(decisions == [.emit(suppressed: nil), .emit(suppressed: nil), .emit(suppressed: nil)] + Array(repeating: .drop, count: 5))

        let next = limiter.admit(label: "media", at: .seconds(60))
        #expect(next == .emit(suppressed: Suppression(label: "media", count: 5)))
        #expect(Suppression(label: "media", count: 5).summary == "suppressed 5 messages from media in the last minute")

        // The summary is reported once; the new window has its own budget.
        #expect(limiter.admit(label: "media", at: .seconds(61)) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "media", at: .seconds(62)) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "media", at: .seconds(63)) == .drop)
    }

    @Test func windowIsHalfOpen() {
        var limiter = LogRateLimiter(linesPerWindow: 1)
        #expect(limiter.admit(label: "a", at: .seconds(100)) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "a", at: .seconds(160) - .nanoseconds(1)) == .drop)
        #expect(limiter.admit(label: "a", at: .seconds(160)) == .emit(suppressed: Suppression(label: "a", count: 1)))
    }

    @Test func quietWindowsProduceNoSummary() {
        var limiter = LogRateLimiter(linesPerWindow: 2)
        #expect(limiter.admit(label: "a", at: .zero) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "a", at: .seconds(600)) == .emit(suppressed: nil))
    }

    @Test func labelsHaveSeparateBudgets() {
        var limiter = LogRateLimiter(linesPerWindow: 1)
        #expect(limiter.admit(label: "a", at: .zero) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "b", at: .zero) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "a", at: .seconds(1)) == .drop)
        #expect(limiter.admit(label: "b", at: .seconds(1)) == .drop)
        #expect(limiter.admit(label: "b", at: .seconds(2)) == .drop)
        #expect(limiter.admit(label: "b", at: .seconds(90)) == .emit(suppressed: Suppression(label: "b", count: 2)))
        #expect(limiter.admit(label: "a", at: .seconds(90)) == .emit(suppressed: Suppression(label: "a", count: 1)))
    }

    @Test func customWindowLength() {
        var limiter = LogRateLimiter(linesPerWindow: 1, window: .seconds(10))
        #expect(limiter.admit(label: "a", at: .zero) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "a", at: .seconds(9)) == .drop)
        #expect(limiter.admit(label: "a", at: .seconds(10)) == .emit(suppressed: Suppression(label: "a", count: 1)))
    }

    @Test func drainExpiredReportsPendingCountsWithoutANewLine() {
        var limiter = LogRateLimiter(linesPerWindow: 1)
        _ = limiter.admit(label: "b", at: .zero)
        _ = limiter.admit(label: "b", at: .seconds(1))
        _ = limiter.admit(label: "a", at: .zero)
        _ = limiter.admit(label: "a", at: .seconds(1))
        _ = limiter.admit(label: "a", at: .seconds(2))
        _ = limiter.admit(label: "quiet", at: .zero)
        _ = limiter.admit(label: "young", at: .seconds(30))
        _ = limiter.admit(label: "young", at: .seconds(31))
        #expect(limiter.drainExpired(at: .seconds(59)) == [])
        #expect(limiter.drainExpired(at: .seconds(60)) == [Suppression(label: "a", count: 2), Suppression(label: "b", count: 1)])
        #expect(limiter.trackedLabelCount == 1)
        // Drained counts are not reported a second time.
        #expect(limiter.admit(label: "a", at: .seconds(61)) == .emit(suppressed: nil))
        #expect(limiter.drainExpired(at: .seconds(Int64.max)) == [Suppression(label: "young", count: 1)])
    }

    @Test func budgetBelowOneIsTreatedAsOne() {
        var limiter = LogRateLimiter(linesPerWindow: 0)
        #expect(limiter.linesPerWindow == 1)
        #expect(limiter.admit(label: "a", at: .zero) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "a", at: .zero) == .drop)
    }

    @Test func tooManyLabelsShareTheOverflowBucket() {
        var limiter = LogRateLimiter(linesPerWindow: 1, maximumTrackedLabels: 2)
        #expect(limiter.admit(label: "a", at: .zero) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "b", at: .zero) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "c", at: .zero) == .emit(suppressed: nil))  // first line of the overflow bucket
        #expect(limiter.admit(label: "d", at: .zero) == .drop)
        #expect(limiter.trackedLabelCount == 3)
        // While "a" and "b" stay busy, a new label still lands in the overflow bucket, which reports its count.
        _ = limiter.admit(label: "a", at: .seconds(60))
        _ = limiter.admit(label: "b", at: .seconds(60))
        let overflow = limiter.admit(label: "e", at: .seconds(60))
        #expect(overflow == .emit(suppressed: Suppression(label: LogRateLimiter.overflowLabel, count: 1)))
        #expect(limiter.trackedLabelCount == 3)
    }

    @Test func expiredQuietLabelsAreForgottenToMakeRoom() {
        var limiter = LogRateLimiter(linesPerWindow: 1, maximumTrackedLabels: 2)
        _ = limiter.admit(label: "a", at: .zero)
        _ = limiter.admit(label: "b", at: .zero)
        #expect(limiter.admit(label: "c", at: .seconds(60)) == .emit(suppressed: nil))
        #expect(limiter.admit(label: "c", at: .seconds(61)) == .drop)
        #expect(limiter.trackedLabelCount == 1)
    }
}
