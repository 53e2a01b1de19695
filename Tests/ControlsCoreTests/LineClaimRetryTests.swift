import ControlsCore
import Testing

/// The background claim of GPIO lines another program holds (issue #23, item 4).
@Suite("Line claim retry")
struct LineClaimRetryTests {
    @Test func backsOffToTheMaximumAndLogsOncePerStreak() {
        var retry = LineClaimRetry()
        let tries = (0..<7).map { _ in retry.failed() }
        #expect(tries.map(\.retryAfter) == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10), .seconds(10)])
        #expect(tries.map(\.startsStreak) == [true, false, false, false, false, false, false])
        #expect(retry.claimed() == 7)
        #expect(retry.claimed() == 0, "claimed again without failing: nothing to log")
        let again = retry.failed()
        #expect(again.retryAfter == .seconds(1) && again.startsStreak, "a new streak starts over and is logged")
    }

    @Test func aLineFreedAfterTwentySecondsIsClaimedWithinTheMaximumDelay() {
        var retry = LineClaimRetry()
        var clock = Duration.zero
        while clock < .seconds(20) { clock += retry.failed().retryAfter }
        #expect(clock - .seconds(20) <= retry.maximumDelay)
    }
}
