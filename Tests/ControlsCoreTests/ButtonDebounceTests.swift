import ControlsCore
import Testing

@Suite("Button debounce")
struct ButtonDebounceTests {
    @Test func aPressIsReportedOneDebounceAfterItsEdge() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        #expect(button.nextDeadline == nil)
        #expect(button.edge(.rising, at: ms(100)).isEmpty)
        #expect(button.nextDeadline == ms(130))
        #expect(button.gestures(tickingAt: ms(130).justBefore).isEmpty)
        #expect(button.isPressed == false)
        #expect(button.tick(at: ms(130)) == [GestureReport(.press, at: ms(130))])
        #expect(button.isPressed)
        #expect(button.nextDeadline == nil)
    }

    @Test func aReleaseReportsOnlyARelease() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        #expect(button.cleanPress(from: ms(100), to: ms(300)) == [.press, .release])
        var held = ButtonInterpreter(isActive: false, at: .zero)
        _ = held.edge(.rising, at: ms(0))
        _ = held.tick(at: ms(30))
        #expect(held.edge(.falling, at: ms(300)).isEmpty)
        #expect(held.tick(at: ms(330)) == [GestureReport(.release, at: ms(330))])
    }

    @Test(arguments: [1, 10, 20, 21])
    func aBurstOfEdgesWithinFiveMillisecondsIsOnePress(edges: Int) {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        var gestures: [ButtonGesture] = []
        var last = ms(1_000)
        for index in 0..<edges {
            last = ms(1_000) + .microseconds(Int64(index) * 5_000 / Int64(max(edges - 1, 1)))
            gestures += button.edge(index % 2 == 0 ? .rising : .falling, at: last).map(\.gesture)
            gestures += button.gestures(tickingAt: last)
        }
        #expect(button.nextDeadline == last + .milliseconds(30))
        gestures += button.gestures(tickingAt: ms(2_000))
        // An odd count ends pressed, an even one where it began.
        #expect(gestures == (edges.isMultiple(of: 2) ? [] : [.press]))
    }

    @Test func aGlitchShorterThanTheDebounceIsIgnored() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        #expect(button.edge(.rising, at: ms(100)).isEmpty)
        #expect(button.edge(.falling, at: ms(129)).isEmpty)
        #expect(button.nextDeadline == ms(159))
        #expect(button.gestures(tickingAt: ms(1_000)).isEmpty)
        #expect(button.isPressed == false)
        #expect(button.nextDeadline == nil)
    }

    @Test func aZeroDebounceBelievesEachEdgeAtOnce() throws {
        var button = ButtonInterpreter(timing: try ButtonTiming(debounce: .zero), isActive: false, at: .zero)
        #expect(button.edge(.rising, at: ms(5)).isEmpty)
        #expect(button.gestures(tickingAt: ms(5)) == [.press])
    }

    @Test func aButtonHeldAtStartUpReportsNothingUntilItsNextPress() {
        var button = ButtonInterpreter(isActive: true, at: ms(10))
        #expect(button.isPressed)
        #expect(button.edge(.falling, at: ms(500)).isEmpty)
        #expect(button.gestures(tickingAt: ms(530)).isEmpty)
        #expect(button.isPressed == false)
        #expect(button.cleanPress(from: ms(1_000), to: ms(1_100)) == [.press, .release])
    }

    @Test func deadlinesDueBeforeAnEdgeAreHandledFirst() {
        var button = ButtonInterpreter(isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        // The timer was never fed: the release edge itself shows the press had settled.
        #expect(button.edge(.falling, at: ms(200)) == [GestureReport(.press, at: ms(30))])
        #expect(button.tick(at: ms(230)) == [GestureReport(.release, at: ms(230))])
    }
}
