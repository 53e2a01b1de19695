import CallCore
import Testing

/// Do-not-disturb declines with `bye "busy"` (see `CallStateMachine.receive(_:localTime:at:into:)`).
@Suite("Do not disturb")
struct DoNotDisturbTests {
    @Test(arguments: [AnswerMode.auto, .button, .autoAfter(.seconds(3))])
    func incomingCallsAreDeclinedAsBusy(mode: AnswerMode) {
        var harness = Harness(CallPolicy(answerMode: mode), doNotDisturb: true)
        #expect(harness.led == .off)
        let output = harness.send(row(), at: 0)
        #expect(
            Array(output.prefix(3)) == [
                .joinSession(sessionID: "s1", role: .publisher),
                .sendSignal(sessionID: "s1", to: nil, .bye(.busy)),
                .leaveSession(sessionID: "s1"),
            ])
        #expect(harness.outcomes() == [.unanswered(.doNotDisturb)])
        #expect(harness.machine.state == .idle)
        #expect(harness.mediaStarts() == 0)
    }

    @Test func longPressTogglesAndTheLEDFollows() {
        var harness = Harness()
        #expect(harness.led == .idle)
        harness.send(.longPress, at: 1)
        #expect(harness.machine.doNotDisturb)
        #expect(harness.led == .off)
        #expect(harness.status == "idle, do not disturb")
        harness.send(.longPress, at: 2)
        #expect(!harness.machine.doNotDisturb)
        #expect(harness.led == .idle)
        harness.send(row(expiresAt: 60), at: 3)
        #expect(harness.machine.state.name == "ringing")
    }

    @Test func longPressWhileRingingDeclinesThatCall() {
        var harness = Harness()
        harness.run(Script.ringWithPartner)
        harness.send(.longPress, at: 2)
        #expect(harness.signals() == [.ringing, .bye(.busy)])
        #expect(harness.outcomes() == [.unanswered(.doNotDisturb)])
        #expect(harness.led == .off)
        harness.send(.accept, at: 3)
        #expect(harness.mediaStarts() == 0)
    }

    @Test func longPressInACallKeepsTheCall() {
        var harness = Harness()
        harness.run(Script.inCall)
        harness.send(.longPress, at: 5)
        #expect(harness.machine.doNotDisturb)
        #expect(harness.machine.state.name == "inCall")
        #expect(harness.led == .inCall)
        harness.send(.hangup, at: 6)
        harness.fire(.teardown)  // not `drain()`: that would also run do-not-disturb out to its limit
        #expect(harness.machine.doNotDisturb)
        #expect(harness.led == .off)
        #expect(harness.outcomes() == [.answered(ended: .localHangup)])
    }
}
