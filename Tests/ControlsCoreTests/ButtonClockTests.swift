import ControlsCore
import Testing

/// Kernel stamps are believed only when they can be true; time never runs backwards.
@Suite("Button timestamps")
struct ButtonClockTests {
    @Test func aStampBeforeTheLatestInstantCountsAsTheReadTime() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(100), receivedAt: ms(100))
        _ = button.edge(.falling, at: ms(50), receivedAt: ms(110))
        #expect(button.latestInstant == ms(110))
        #expect(button.nextDeadline == ms(140))
        #expect(button.gestures(tickingAt: ms(1_000)).isEmpty)
    }

    @Test func aStampAfterTheReadTimeCountsAsTheReadTime() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        let farFuture = MonotonicInstant(sinceBoot: .seconds(1_700_000_000))
        #expect(button.edge(.rising, at: farFuture, receivedAt: ms(1_000)).isEmpty)
        #expect(button.nextDeadline == ms(1_030))
        #expect(button.gestures(tickingAt: ms(1_030)) == [.press])
    }

    @Test func aStampWithinBoundsIsBelievedEvenWhenReadLate() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(90), receivedAt: ms(100))
        #expect(button.nextDeadline == ms(120))
        // The edges were read 500 ms late: the deadline has passed, so the caller ticks at once.
        var late = ButtonInterpreter(isActive: false, at: .zero)
        _ = late.edge(.rising, at: ms(90), receivedAt: ms(600))
        #expect(late.nextDeadline == ms(120))
        #expect(late.tick(at: ms(600)) == [GestureReport(.press, at: ms(120))])
    }

    @Test func aTickBeforeTheLatestInstantChangesNothing() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(100))
        #expect(button.tick(at: ms(20)).isEmpty)
        #expect(button.latestInstant == ms(100))
        #expect(button.levelSample(isActive: true, at: ms(40)).isEmpty)
        #expect(button.nextDeadline == ms(130))
        #expect(button.isPressed == false)
    }

    @Test func aStampBeforeBootIsHarmless() {
        var button = ButtonInterpreter(isActive: false, at: ms(5))
        let beforeBoot = MonotonicInstant(sinceBoot: .seconds(-1_000_000))
        _ = button.edge(.rising, at: beforeBoot, receivedAt: ms(10))
        #expect(button.nextDeadline == ms(40))
    }
}
