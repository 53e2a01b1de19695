import CallCore
import Testing

@Suite("Call summaries, LED and status")
struct SummaryAndStatusTests {
    @Test func summaryCarriesTimings() {
        var harness = Harness(CallPolicy(answerMode: .button))
        harness.send(row(title: "Alice"), at: 10)
        harness.send(.partnerJoins, at: 11)
        harness.send(.accept, at: 14)
        harness.send(.mediaUp, at: 15.5)
        harness.send(.hangup, at: 75.5)
        let expected = CallSummary(
            direction: .incoming, rowID: "r1", sessionID: "s1", remoteID: "alice", remoteTitle: "Alice",
            outcome: .answered(ended: .localHangup), ringToAnswer: .seconds(4), setupTime: .milliseconds(1500),
            talkTime: .seconds(60), totalDuration: .milliseconds(65_500))
        #expect(harness.summaries == [expected])
    }

    struct Phase: Sendable, CustomTestStringConvertible {
        let steps: [Step]
        let led: LEDPattern
        let status: String
        var testDescription: String { status }
    }

    @Test(arguments: [
        Phase(steps: [], led: .idle, status: "idle"),
        Phase(steps: [.send(row(), at: 0)], led: .ringing, status: "ringing: call from Alice"),
        Phase(steps: Script.answered, led: .connecting, status: "connecting with Alice"),
        Phase(steps: Script.inCall, led: .inCall, status: "in call with Alice"),
        Phase(
            steps: Script.inCall + [.send(.remote(.viewerJoinRequest(peer: "v1")), at: 3)], led: .inCall,
            status: "in call with Alice, 1 viewer(s)"),
        Phase(steps: Script.inCall + [.send(.hangup, at: 4)], led: .idle, status: "ending call with Alice"),
    ])
    func ledAndStatusFollowTheState(_ phase: Phase) {
        var harness = Harness()
        harness.run(phase.steps)
        #expect(harness.led == phase.led)
        #expect(harness.status == phase.status)
        #expect(harness.machine.ledPattern == phase.led)
    }

    @Test func indicatorsAreEmittedOnlyWhenTheyChange() {
        var harness = Harness()
        harness.run(Script.inCall)
        let repeated = harness.send(.mediaUp, at: 3)
        #expect(repeated.isEmpty)
    }

    @Test func callerTitleCannotBreakTheStatusLine() {
        var harness = Harness()
        harness.send(row(title: "Eve\nREADY=1\u{7}" + String(repeating: "x", count: 200)), at: 0)
        let status = harness.status ?? ""
        #expect(!status.contains("\n"))
        #expect(!status.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(status.hasPrefix("ringing: call from Eve READY=1 x"))
        #expect(status.count == "ringing: call from ".count + 64)
    }

    @Test func startupActionsShowTheInitialState() {
        var machine = CallStateMachine(policy: CallPolicy(), doNotDisturb: true)
        #expect(machine.startupActions() == [.setLEDPattern(.offline), .reportState("offline: backend unreachable, do not disturb")])
        #expect(machine.startupActions().isEmpty)
        #expect(machine.handle(.backendUp, at: .zero) == [.setLEDPattern(.off), .reportState("idle, do not disturb")])
    }
}
