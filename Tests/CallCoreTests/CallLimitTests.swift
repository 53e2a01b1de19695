import CallCore
import Testing

@Suite("Ring timeout, max duration, media timeout")
struct CallLimitTests {
    static let policy = CallPolicy(
        answerMode: .button, ringTimeout: .seconds(30), maxDuration: .seconds(60), mediaTimeout: .seconds(10),
        teardownTimeout: .seconds(2))

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        let outcome: CallOutcome
        let bye: ByeReason
        let endedAt: Double
        var stateAfter: String? = nil
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "ring timeout", steps: Script.ringWithPartner + [.fire(.ringTimeout)],
            outcome: .unanswered(.ringTimeout), bye: .timeout, endedAt: 30),
        Case(
            name: "max duration", steps: Script.inCall + [.fire(.maxDuration)],
            outcome: .answered(ended: .maxDuration), bye: .timeout, endedAt: 61),
        Case(
            name: "max duration noticed on a later event", steps: Script.inCall + [.send(.mediaUp, at: 70)],
            outcome: .answered(ended: .maxDuration), bye: .timeout, endedAt: 61, stateAfter: "idle"),
        Case(
            name: "media never comes up", steps: Script.answered + [.fire(.mediaTimeout)],
            outcome: .failed(.mediaTimeout, ended: .mediaTimeout), bye: .timeout, endedAt: 11),
        Case(
            name: "ICE fails and media never comes up",
            steps: Script.answered + [.send(.mediaFailed(sessionID: "s1", .iceFailed), at: 6), .fire(.mediaTimeout)],
            outcome: .failed(.iceFailed, ended: .mediaTimeout), bye: .timeout, endedAt: 11),
        Case(
            name: "DTLS fails and media never comes up",
            steps: Script.answered + [.send(.mediaFailed(sessionID: "s1", .dtlsFailed), at: 6), .fire(.mediaTimeout)],
            outcome: .failed(.dtlsFailed, ended: .mediaTimeout), bye: .timeout, endedAt: 11),
        Case(
            name: "a media failure after media flowed leaves the call answered",
            steps: Script.inCall + [.send(.mediaFailed(sessionID: "s1", .iceFailed), at: 20), .fire(.mediaTimeout)],
            outcome: .answered(ended: .mediaTimeout), bye: .timeout, endedAt: 30),
        Case(
            name: "media lost and not back", steps: Script.inCall + [.send(.mediaDown, at: 20), .fire(.mediaTimeout)],
            outcome: .answered(ended: .mediaTimeout), bye: .timeout, endedAt: 30),
    ]

    @Test(arguments: cases)
    func limitEndsTheCall(_ testCase: Case) {
        var harness = Harness(Self.policy)
        harness.run(testCase.steps)
        #expect(harness.outcomes() == [testCase.outcome])
        #expect(harness.signals().last == .bye(testCase.bye))
        #expect(harness.actions.contains(.leaveSession(sessionID: "s1")))
        #expect(harness.summaries.first?.totalDuration == .seconds(testCase.endedAt))
        let answered = testCase.outcome.wasAnswered
        #expect(harness.actions.contains(.stopMedia(sessionID: "s1")) == answered)
        #expect(harness.machine.state.name == testCase.stateAfter ?? (answered ? "ending" : "idle"))
        harness.drain()
        #expect(harness.machine.state == .idle)
        #expect(harness.outcomes().count == 1)
    }

    @Test func mediaBackInTimeKeepsTheCall() {
        var harness = Harness(Self.policy)
        harness.run(Script.inCall)
        harness.send(.mediaDown, at: 20)
        harness.send(.mediaDown, at: 21)  // a repeated report does not restart the timeout
        let armed = harness.actions.filter { if case .armTimer(let t, _) = $0 { t.kind == .mediaTimeout } else { false } }
        #expect(armed.count == 2)  // one at the answer, one at the first media down
        harness.send(.mediaUp, at: 29)
        #expect(harness.fire(.mediaTimeout) == [])
        #expect(harness.machine.state.name == "inCall")
        #expect(harness.outcomes().isEmpty)
    }

    @Test func endingCompletesOnMediaDown() {
        var harness = Harness(Self.policy)
        harness.run(Script.inCall)
        harness.send(.hangup, at: 5)
        #expect(harness.machine.state.name == "ending")
        #expect(harness.led == .idle)
        harness.send(.mediaDown, at: 5.5)
        #expect(harness.machine.state == .idle)
        #expect(harness.fire(.teardown) == [])
    }
}
