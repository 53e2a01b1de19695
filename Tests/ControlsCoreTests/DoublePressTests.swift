import ControlsCore
import Testing

@Suite("Double press")
struct DoublePressTests {
    /// A first press from 0 to 100 ms (confirmed at 30 and 130 ms), then a second press from `second`
    /// to `second + 100 ms`; the timer is fed every deadline up to 2 s.
    static func twoPresses(secondAt second: MonotonicInstant, timing: ButtonTiming = timing(doublePress: true)) -> [GestureReport] {
        var button = ButtonInterpreter(timing: timing, isActive: false, at: .zero)
        let edges: [(ButtonEdge, MonotonicInstant)] = [
            (.rising, ms(0)), (.falling, ms(100)), (.rising, second), (.falling, second + .milliseconds(100)),
        ]
        var reports: [GestureReport] = []
        for (edge, instant) in edges {
            while let deadline = button.nextDeadline, deadline < instant {
                reports += button.tick(at: deadline)
            }
            reports += button.edge(edge, at: instant, receivedAt: instant)
        }
        while let deadline = button.nextDeadline, deadline <= ms(2_000) {
            reports += button.tick(at: deadline)
        }
        return reports
    }

    @Test func aSecondPressAtTheWindowEdgeIsADoublePress() {
        // Second press confirmed at 430 ms = first press (30 ms) + 400 ms.
        #expect(Self.twoPresses(secondAt: ms(400)) == [
            GestureReport(.doublePress, at: ms(430)), GestureReport(.release, at: ms(530)),
        ])
    }

    @Test func aSecondPressJustPastTheWindowIsTwoPresses() {
        let second = ms(400) + .nanoseconds(1)
        #expect(Self.twoPresses(secondAt: second) == [
            GestureReport(.press, at: ms(430)), GestureReport(.release, at: ms(430)),
            // The second press could start a pair of its own, so it waits for its window too.
            GestureReport(.press, at: second + .milliseconds(430)),
            GestureReport(.release, at: second + .milliseconds(430)),
        ])
    }

    @Test func aSinglePressIsReportedWhenTheWindowCloses() {
        var button = ButtonInterpreter(timing: timing(doublePress: true), isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        #expect(button.gestures(tickingAt: ms(30)).isEmpty)
        _ = button.edge(.falling, at: ms(100))
        #expect(button.gestures(tickingAt: ms(130)).isEmpty)
        #expect(button.nextDeadline == ms(430))
        #expect(button.gestures(tickingAt: ms(430).justBefore).isEmpty)
        #expect(button.tick(at: ms(430)) == [GestureReport(.press, at: ms(430)), GestureReport(.release, at: ms(430))])
        #expect(button.nextDeadline == nil)
    }

    @Test func aFirstPressHeldPastTheWindowIsAPressOnRelease() {
        var button = ButtonInterpreter(timing: timing(doublePress: true), isActive: false, at: .zero)
        #expect(button.cleanPress(from: ms(0), to: ms(1_000)) == [.press, .release])
    }

    @Test func withBothGesturesAHoldIsLongAndAQuickPairIsDouble() {
        let both = timing(longPress: true, doublePress: true)
        #expect(Self.twoPresses(secondAt: ms(300), timing: both).map(\.gesture) == [.doublePress, .release])
        var button = ButtonInterpreter(timing: both, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        _ = button.tick(at: ms(30))
        #expect(button.nextDeadline == ms(2_030))
        #expect(button.gestures(tickingAt: ms(2_030)) == [.longPress])
        #expect(button.edge(.falling, at: ms(2_500)).isEmpty)
        #expect(button.gestures(tickingAt: ms(2_530)) == [.release])
        // A long press opens no double-press window.
        #expect(button.nextDeadline == nil)
    }

    @Test func theSecondPressOfAPairIsNotALongPress() {
        let both = timing(longPress: true, doublePress: true)
        var button = ButtonInterpreter(timing: both, isActive: false, at: .zero)
        var gestures = button.cleanPress(from: ms(0), to: ms(100))
        gestures += button.edge(.rising, at: ms(200)).map(\.gesture)
        gestures += button.gestures(tickingAt: ms(230))
        gestures += button.gestures(tickingAt: ms(5_000))
        #expect(gestures == [.doublePress])
        #expect(button.nextDeadline == nil)
    }
}
