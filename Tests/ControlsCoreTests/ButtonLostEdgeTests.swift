import ControlsCore
import Testing

/// libgpiod 1.6's 16-event FIFO drops events silently; the interpreter resynchronizes from the level.
@Suite("Lost edges and level samples")
struct ButtonLostEdgeTests {
    @Test func twoRisingEdgesInARowRestartTheWait() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        // The falling edge between these two was lost.
        #expect(button.edge(.rising, at: ms(20)).isEmpty)
        #expect(button.nextDeadline == ms(50))
        #expect(button.gestures(tickingAt: ms(30)).isEmpty)
        #expect(button.gestures(tickingAt: ms(50)) == [.press])
        #expect(button.edge(.rising, at: ms(500)).isEmpty)
        #expect(button.gestures(tickingAt: ms(530)).isEmpty)
        #expect(button.isPressed)
    }

    @Test func twoFallingEdgesInARowAreOneRelease() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        _ = button.tick(at: ms(30))
        _ = button.edge(.falling, at: ms(300))
        #expect(button.edge(.falling, at: ms(310)).isEmpty)
        #expect(button.gestures(tickingAt: ms(340)) == [.release])
        #expect(button.gestures(tickingAt: ms(1_000)).isEmpty)
    }

    @Test func aSampleContradictingTheEdgesCancelsThePress() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        // The falling edge that ended this glitch was lost.
        #expect(button.levelSample(isActive: false, at: ms(30)).isEmpty)
        #expect(button.isPressed == false)
        #expect(button.rawIsActive == false)
        #expect(button.nextDeadline == ms(60))
        #expect(button.levelSample(isActive: false, at: ms(60)).isEmpty)
        #expect(button.nextDeadline == nil)
    }

    @Test func aLostLastEdgeOfABurstIsFoundBySampling() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        _ = button.edge(.falling, at: ms(1))
        // The final rising edge at 2 ms was lost: the edges say released, the line is held.
        #expect(button.levelSample(isActive: true, at: ms(31)).isEmpty)
        #expect(button.nextDeadline == ms(61))
        #expect(button.levelSample(isActive: true, at: ms(61)) == [GestureReport(.press, at: ms(61))])
    }

    @Test func aSampleRevealsAWholeLostPressOnlyAfterItSettles() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        #expect(button.levelSample(isActive: true, at: ms(100)).isEmpty)
        #expect(button.nextDeadline == ms(130))
        #expect(button.levelSample(isActive: true, at: ms(130)).map(\.gesture) == [.press])
    }

    @Test func aSampleHealsALostRelease() {
        var button = ButtonInterpreter(timing: .withLongPress, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        _ = button.levelSample(isActive: true, at: ms(30))
        // The release edges were all lost; the long-press deadline's sample finds the line up.
        #expect(button.nextDeadline == ms(2_030))
        #expect(button.levelSample(isActive: false, at: ms(2_030)).map(\.gesture) == [.longPress])
        #expect(button.nextDeadline == ms(2_060))
        #expect(button.levelSample(isActive: false, at: ms(2_060)).map(\.gesture) == [.release])
    }

    @Test func anAgreeingSampleConfirmsLikeATick() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        #expect(button.levelSample(isActive: true, at: ms(10)).isEmpty)
        #expect(button.nextDeadline == ms(30))
        #expect(button.levelSample(isActive: true, at: ms(30)).map(\.gesture) == [.press])
    }
}
