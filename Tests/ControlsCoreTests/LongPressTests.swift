import ControlsCore
import Testing

/// The `accept` button: a short press answers, a hold of 2 s toggles do-not-disturb; never both.
@Suite("Long press")
struct LongPressTests {
    /// Pressed at 0 (confirmed at 30 ms); released so that the release is confirmed `hold` later.
    static func holding(for hold: Duration) -> [GestureReport] {
        var button = ButtonInterpreter(timing: .withLongPress, isActive: false, at: .zero)
        var reports = button.edge(.rising, at: ms(0), receivedAt: ms(0))
        reports += button.tick(at: ms(30))
        let releaseEdge = ms(0) + hold
        while let deadline = button.nextDeadline, deadline < releaseEdge {
            reports += button.tick(at: deadline)
        }
        reports += button.edge(.falling, at: releaseEdge, receivedAt: releaseEdge)
        reports += button.tick(at: releaseEdge + .milliseconds(30))
        return reports
    }

    @Test func aHoldJustBelowTheThresholdIsAPressReportedOnRelease() {
        let hold = Duration.seconds(2) - .nanoseconds(1)
        let releasedAt = ms(30) + hold
        #expect(Self.holding(for: hold) == [GestureReport(.press, at: releasedAt), GestureReport(.release, at: releasedAt)])
    }

    @Test func aHoldOfExactlyTheThresholdIsALongPress() {
        #expect(Self.holding(for: .seconds(2)) == [GestureReport(.longPress, at: ms(2_030)), GestureReport(.release, at: ms(2_030))])
    }

    @Test func aLongPressIsReportedOnceWhileStillHeld() {
        var button = ButtonInterpreter(timing: .withLongPress, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        #expect(button.gestures(tickingAt: ms(30)).isEmpty)
        #expect(button.nextDeadline == ms(2_030))
        #expect(button.gestures(tickingAt: ms(2_030).justBefore).isEmpty)
        #expect(button.gestures(tickingAt: ms(2_030)) == [.longPress])
        #expect(button.isPressed)
        #expect(button.nextDeadline == nil)
        #expect(button.gestures(tickingAt: ms(9_000)).isEmpty)
        #expect(button.edge(.falling, at: ms(10_000)).isEmpty)
        #expect(button.gestures(tickingAt: ms(10_030)) == [.release])
    }

    @Test func missedTicksStillReportTheLongPressBeforeTheRelease() {
        var button = ButtonInterpreter(timing: .withLongPress, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        #expect(button.edge(.falling, at: ms(3_000)) == [GestureReport(.longPress, at: ms(2_030))])
        #expect(button.gestures(tickingAt: ms(3_030)) == [.release])
    }

    @Test func withoutLongPressReportingAHoldIsAPlainPress() {
        var button = ButtonInterpreter(timing: .plain, isActive: false, at: .zero)
        #expect(button.cleanPress(from: ms(0), to: ms(5_000)) == [.press, .release])
    }

    @Test func aCustomThresholdIsHonoured() throws {
        let timing = try ButtonTiming(reportsLongPress: true, longPressThreshold: .milliseconds(800))
        var button = ButtonInterpreter(timing: timing, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        _ = button.tick(at: ms(30))
        #expect(button.nextDeadline == ms(830))
    }
}
