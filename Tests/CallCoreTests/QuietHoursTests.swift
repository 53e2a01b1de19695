import CallCore
import Testing

@Suite("Quiet hours")
struct QuietHoursTests {
    struct Window: Sendable, CustomTestStringConvertible {
        let start: (Int, Int)
        let end: (Int, Int)
        let time: (Int, Int)
        let quiet: Bool
        var testDescription: String {
            "\(start.0):\(start.1)-\(end.0):\(end.1) at \(time.0):\(time.1) quiet=\(quiet)"
        }
    }

    static let windows: [Window] = [
        // Across midnight, 22:00–07:00.
        Window(start: (22, 0), end: (7, 0), time: (21, 59), quiet: false),
        Window(start: (22, 0), end: (7, 0), time: (22, 0), quiet: true),
        Window(start: (22, 0), end: (7, 0), time: (23, 59), quiet: true),
        Window(start: (22, 0), end: (7, 0), time: (0, 0), quiet: true),
        Window(start: (22, 0), end: (7, 0), time: (6, 59), quiet: true),
        Window(start: (22, 0), end: (7, 0), time: (7, 0), quiet: false),
        Window(start: (22, 0), end: (7, 0), time: (12, 0), quiet: false),
        // Within one day, 09:00–17:00.
        Window(start: (9, 0), end: (17, 0), time: (8, 59), quiet: false),
        Window(start: (9, 0), end: (17, 0), time: (9, 0), quiet: true),
        Window(start: (9, 0), end: (17, 0), time: (16, 59), quiet: true),
        Window(start: (9, 0), end: (17, 0), time: (17, 0), quiet: false),
        Window(start: (9, 0), end: (17, 0), time: (23, 0), quiet: false),
        // Empty window.
        Window(start: (8, 0), end: (8, 0), time: (8, 0), quiet: false),
        Window(start: (8, 0), end: (8, 0), time: (20, 0), quiet: false),
    ]

    @Test(arguments: windows)
    func windowMembership(_ window: Window) throws {
        let hours = QuietHours(
            start: try MinuteOfDay(hour: window.start.0, minute: window.start.1),
            end: try MinuteOfDay(hour: window.end.0, minute: window.end.1),
            answerMode: .button)
        let time = try MinuteOfDay(hour: window.time.0, minute: window.time.1)
        #expect(hours.contains(time) == window.quiet)
        let policy = CallPolicy(answerMode: .auto, quietHours: hours)
        #expect(policy.answerMode(at: time) == (window.quiet ? .button : .auto))
    }

    struct Arrival: Sendable, CustomTestStringConvertible {
        let time: (Int, Int)
        let expectedState: String
        var testDescription: String { "call at \(time.0):\(time.1) -> \(expectedState)" }
    }

    /// Auto-answer by day, button only 22:00–07:00: the machine uses the local time that came with the row.
    @Test(arguments: [
        Arrival(time: (21, 59), expectedState: "connecting"),
        Arrival(time: (23, 30), expectedState: "ringing"),
        Arrival(time: (0, 15), expectedState: "ringing"),
        Arrival(time: (6, 59), expectedState: "ringing"),
        Arrival(time: (7, 0), expectedState: "connecting"),
    ])
    func quietHoursTurnAutoIntoButton(_ arrival: Arrival) throws {
        let quiet = QuietHours(
            start: try MinuteOfDay(hour: 22, minute: 0), end: try MinuteOfDay(hour: 7, minute: 0),
            answerMode: .button)
        var harness = Harness(CallPolicy(answerMode: .auto, quietHours: quiet))
        let time = try MinuteOfDay(hour: arrival.time.0, minute: arrival.time.1)
        harness.send(row(localTime: time), at: 0)
        harness.send(.partnerJoins, at: 0.5)
        #expect(harness.machine.state.name == arrival.expectedState)
        #expect(harness.mediaStarts() == (arrival.expectedState == "connecting" ? 1 : 0))
    }

    @Test func quietHoursCanUseAutoAfter() throws {
        let quiet = QuietHours(
            start: try MinuteOfDay(hour: 22, minute: 0), end: try MinuteOfDay(hour: 7, minute: 0),
            answerMode: .autoAfter(.seconds(10)))
        var harness = Harness(CallPolicy(answerMode: .button, quietHours: quiet))
        harness.send(row(localTime: try MinuteOfDay(hour: 2, minute: 0)), at: 0)
        harness.send(.partnerJoins, at: 0.5)
        #expect(harness.machine.state.name == "ringing")
        harness.fire(.autoAnswer)
        #expect(harness.machine.state.name == "connecting")
        #expect(harness.mediaStarts() == 1)
    }

    /// `quiet_hours.answer = "reject"`: inside the window a call is refused with `bye busy` (like
    /// do-not-disturb) and never rings; outside it the day's mode applies.
    @Test(arguments: [
        Arrival(time: (23, 30), expectedState: "idle"),
        Arrival(time: (6, 59), expectedState: "idle"),
        Arrival(time: (7, 0), expectedState: "connecting"),
        Arrival(time: (12, 0), expectedState: "connecting"),
    ])
    func quietHoursThatReject(_ arrival: Arrival) throws {
        let quiet = QuietHours(
            start: try MinuteOfDay(hour: 22, minute: 0), end: try MinuteOfDay(hour: 7, minute: 0),
            answerMode: .button, rejectsCalls: true)
        var harness = Harness(CallPolicy(answerMode: .auto, quietHours: quiet))
        let time = try MinuteOfDay(hour: arrival.time.0, minute: arrival.time.1)
        harness.send(row(localTime: time), at: 0)
        harness.send(.partnerJoins, at: 0.5)
        #expect(harness.machine.state.name == arrival.expectedState)
        if arrival.expectedState == "idle" {
            #expect(harness.outcomes() == [.unanswered(.doNotDisturb)])
            #expect(harness.signals().contains(.bye(.busy)))
            #expect(harness.mediaStarts() == 0)
        } else {
            #expect(harness.outcomes().isEmpty)
            #expect(harness.mediaStarts() == 1)
        }
    }
}
