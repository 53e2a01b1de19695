import ControlsCore
import Testing

/// A line that toggles faster than a person presses (a corroded contact, a loose wire) is reported once as
/// `chattering`, its gestures are dropped, and it counts again after a quiet spell (issue #23, item 3).
@Suite("Chattering lines")
struct ChatterTests {
    static let hangup = try! ButtonTiming(chatterLimit: .standard)

    /// Toggles the line at `hertz` from `start` for `count` periods (half the period down, half up), ticking
    /// at every deadline on the way; returns every gesture.
    static func toggle(_ button: inout ButtonInterpreter, hertz: Int64, from start: MonotonicInstant, count: Int)
        -> [ButtonGesture]
    {
        let half = Duration.milliseconds(500 / hertz)
        var gestures: [ButtonGesture] = []
        var clock = start
        for _ in 0..<count {
            for edge in [ButtonEdge.rising, .falling] {
                while let deadline = button.nextDeadline, deadline < clock { gestures += button.gestures(tickingAt: deadline) }
                gestures += button.edge(edge, at: clock).map(\.gesture)
                clock = clock + half
            }
        }
        return gestures
    }

    @Test func fiveHertzIsChatterFromTheEighthPressOn() {
        var button = ButtonInterpreter(timing: Self.hangup, isActive: false, at: .zero)
        let gestures = Self.toggle(&button, hertz: 5, from: ms(1_000), count: 50)
        let presses = gestures.count { $0 == .press }
        #expect(presses == 7, "the presses before the line was found out: \(gestures)")
        #expect(gestures.count { $0 == .chattering } == 1)
        #expect(gestures.last == .chattering || gestures.last == .release)
        #expect(button.isChattering)
    }

    @Test func whileChatteringNothingIsReportedAndQuietEndsIt() {
        var button = ButtonInterpreter(timing: Self.hangup, isActive: false, at: .zero)
        _ = Self.toggle(&button, hertz: 5, from: ms(1_000), count: 10)
        #expect(button.isChattering)
        // A minute more of chatter: not one gesture.
        #expect(Self.toggle(&button, hertz: 5, from: ms(3_000), count: 300) == [])
        // The last edge was at 62.9 s: quiet for 10 s ends it.
        let lastEdge = ms(3_000) + .milliseconds(100) * 599
        #expect(button.gestures(tickingAt: lastEdge + .milliseconds(30)) == [], "its release settles unreported")
        #expect(button.nextDeadline == lastEdge + .seconds(10))
        #expect(button.gestures(tickingAt: lastEdge + .seconds(10)) == [.chatterEnded])
        #expect(!button.isChattering)
        #expect(button.cleanPress(from: ms(80_000), to: ms(80_200)) == [.press, .release])
    }

    @Test func aPersonPressingQuicklyIsNotChatter() {
        var button = ButtonInterpreter(timing: Self.hangup, isActive: false, at: .zero)
        // Seven presses in two seconds, then a pause, and seven more: never eight within 2 s.
        var gestures = Self.toggle(&button, hertz: 4, from: ms(1_000), count: 7)
        gestures += Self.toggle(&button, hertz: 4, from: ms(4_000), count: 7)
        gestures += button.gestures(tickingAt: ms(10_000))
        #expect(gestures.count { $0 == .press } == 14)
        #expect(!gestures.contains(.chattering))
    }

    @Test func aHoldThatOutlastsTheChatterReportsNothingButCanStillGetStuck() throws {
        let timing = try ButtonTiming(reportsLongPress: true, stuckThreshold: .seconds(30), chatterLimit: .standard)
        var button = ButtonInterpreter(timing: timing, isActive: false, at: .zero)
        _ = Self.toggle(&button, hertz: 5, from: ms(1_000), count: 10)
        #expect(button.isChattering)
        // The line ends down and stays down (water settled in the button).
        _ = button.edge(.rising, at: ms(3_000))
        #expect(button.gestures(tickingAt: ms(13_000)) == [.chatterEnded])
        #expect(button.gestures(tickingAt: ms(30_000)) == [], "no long press from a hold that began in the chatter")
        #expect(button.gestures(tickingAt: ms(33_030)) == [.stuck(afterLongPress: false)])
    }

    @Test func withoutALimitToggledLinesAreJustPresses() {
        var button = ButtonInterpreter(timing: .plain, isActive: false, at: .zero)
        let gestures = Self.toggle(&button, hertz: 5, from: ms(1_000), count: 20)
        #expect(gestures.count { $0 == .press } == 20)
    }
}
