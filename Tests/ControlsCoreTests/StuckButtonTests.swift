import ControlsCore
import Testing

/// A button held far longer than a person holds one (water in it, a jammed cap) is reported once as
/// `stuck` and ignored until released (issue #23, item 3).
@Suite("Stuck buttons")
struct StuckButtonTests {
    static let accept = try! ButtonTiming(reportsLongPress: true, stuckThreshold: .seconds(30))
    static let plain = try! ButtonTiming(stuckThreshold: .seconds(30))

    @Test func aHeldAcceptGivesItsLongPressThenStuckOnceThenOnlyTheRelease() {
        var button = ButtonInterpreter(timing: Self.accept, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        #expect(button.gestures(tickingAt: ms(2_030)) == [.longPress])
        #expect(button.nextDeadline == ms(30_030))
        #expect(button.gestures(tickingAt: ms(30_030).justBefore).isEmpty)
        #expect(button.gestures(tickingAt: ms(30_030)) == [.stuck(afterLongPress: true)])
        #expect(button.nextDeadline == nil, "nothing more is due while it stays stuck")
        #expect(button.gestures(tickingAt: ms(120_000)).isEmpty)
        _ = button.edge(.falling, at: ms(120_000))
        #expect(button.gestures(tickingAt: ms(120_030)) == [.release])
        // Working again: the next short press answers as before.
        #expect(button.cleanPress(from: ms(121_000), to: ms(121_200)) == [.press, .release])
    }

    @Test func aButtonHeldAtStartIsReportedStuckWithoutALongPress() {
        var button = ButtonInterpreter(timing: Self.accept, isActive: true, at: ms(5_000))
        #expect(button.nextDeadline == ms(35_000))
        #expect(button.gestures(tickingAt: ms(35_000)) == [.stuck(afterLongPress: false)])
        _ = button.edge(.falling, at: ms(40_000))
        #expect(button.gestures(tickingAt: ms(40_030)) == [.release], "the release lifts the stuck report")
    }

    @Test func aPlainButtonReportsItsPressThenStuck() {
        var button = ButtonInterpreter(timing: Self.plain, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        #expect(button.gestures(tickingAt: ms(30)) == [.press])
        #expect(button.gestures(tickingAt: ms(30_030)) == [.stuck(afterLongPress: false)])
    }

    @Test func missedTicksStillReportTheLongPressBeforeStuckBeforeTheRelease() {
        var button = ButtonInterpreter(timing: Self.accept, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        let reports = button.edge(.falling, at: ms(60_000))
        #expect(reports == [GestureReport(.longPress, at: ms(2_030)), GestureReport(.stuck(afterLongPress: true), at: ms(30_030))])
        #expect(button.gestures(tickingAt: ms(60_030)) == [.release])
    }

    @Test func aThresholdShorterThanTheLongPressPreventsTheLongPress() throws {
        let timing = try ButtonTiming(reportsLongPress: true, longPressThreshold: .seconds(10), stuckThreshold: .seconds(5))
        var button = ButtonInterpreter(timing: timing, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        #expect(button.gestures(tickingAt: ms(20_000)) == [.stuck(afterLongPress: false)])
    }

    @Test func aHoldJustShortOfTheThresholdIsNotStuck() {
        var button = ButtonInterpreter(timing: Self.plain, isActive: false, at: .zero)
        #expect(button.cleanPress(from: ms(0), to: ms(30_000).justBefore) == [.press, .release])
    }

    @Test func withoutAThresholdAHoldIsNeverStuck() {
        var button = ButtonInterpreter(timing: .withLongPress, isActive: false, at: .zero)
        _ = button.edge(.rising, at: ms(0))
        #expect(button.gestures(tickingAt: ms(3_600_000)) == [.longPress])
        #expect(button.nextDeadline == nil)
    }

    @Test func thresholdsOutsideTheRangeAreRejected() {
        #expect(throws: ControlsConfigurationError.self) { try ButtonTiming(stuckThreshold: .seconds(2)) }
        #expect(throws: ControlsConfigurationError.self) { try ButtonTiming(stuckThreshold: .seconds(3_601)) }
        #expect(ButtonTiming.plain.stuckThreshold == nil && ButtonTiming.withLongPress.chatterLimit == nil)
    }
}
