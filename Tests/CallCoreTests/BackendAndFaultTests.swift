import CallCore
import Testing

@Suite("Backend and device faults")
struct BackendAndFaultTests {
    @Test func startsOfflineAndFollowsTheBackend() {
        var harness = Harness(backendUp: false)
        #expect(harness.machine.state == .offline)
        #expect(harness.led == .offline)
        #expect(harness.status == "offline: backend unreachable")
        harness.send(.backendUp, at: 1)
        #expect(harness.machine.state == .idle)
        #expect(harness.led == .idle)
        harness.send(.backendDown, at: 2)
        #expect(harness.machine.state == .offline)
        #expect(harness.led == .offline)
    }

    @Test func backendDownDuringACallKeepsTheCallThenRestsOffline() {
        var harness = Harness()
        harness.run(Script.inCall)
        harness.send(.backendDown, at: 3)
        #expect(harness.machine.state.name == "inCall")
        #expect(harness.led == .inCall)
        #expect(harness.status == "in call with Alice (backend offline)")
        harness.send(.mediaDown, at: 4)
        harness.send(.mediaUp, at: 5)
        harness.send(.bye(), at: 20)
        harness.send(.mediaDown, at: 20.5)
        #expect(harness.machine.state == .offline)
        #expect(harness.led == .offline)
        #expect(harness.outcomes() == [.answered(ended: .remoteBye(.hangup))])
        harness.send(.backendUp, at: 30)
        #expect(harness.machine.state == .idle)
    }

    @Test func backendBackDuringACallRestsIdle() {
        var harness = Harness()
        harness.run(Script.ringWithPartner)
        harness.send(.backendDown, at: 0.7)
        harness.send(.backendUp, at: 0.8)
        harness.send(.hangup, at: 1)
        #expect(harness.machine.state == .idle)
    }

    @Test func rowsArrivingWhileOfflineStillRing() {
        var harness = Harness(backendUp: false)
        harness.send(row(), at: 0)
        #expect(harness.machine.state.name == "ringing")
        harness.send(.hangup, at: 1)
        #expect(harness.machine.state == .offline)
    }

    @Test func faultWinsOverOfflineAndDeclinesCallsWithError() {
        var harness = Harness()
        harness.send(.deviceFault(device: "camera"), at: 1)
        harness.send(.backendDown, at: 2)
        #expect(harness.machine.state == .fault)
        #expect(harness.led == .fault)
        #expect(harness.status == "fault: missing camera")
        let output = harness.send(row(), at: 3)
        #expect(output.contains(.sendSignal(sessionID: "s1", to: nil, .bye(.error))))
        #expect(harness.outcomes() == [.unanswered(.deviceFault)])
        harness.send(.deviceFault(device: "microphone"), at: 4)
        harness.send(.deviceRecovered(device: "camera"), at: 5)
        #expect(harness.machine.state == .fault)
        harness.send(.deviceRecovered(device: "microphone"), at: 6)
        #expect(harness.machine.state == .offline)
        harness.send(.backendUp, at: 7)
        #expect(harness.machine.state == .idle)
    }

    @Test func faultDuringACallEndsItWithError() {
        var harness = Harness()
        harness.run(Script.inCall)
        harness.send(.deviceFault(device: "microphone"), at: 5)
        #expect(harness.signals().last == .bye(.error))
        #expect(harness.actions.contains(.stopMedia(sessionID: "s1")))
        #expect(harness.outcomes() == [.answered(ended: .deviceFault)])
        #expect(harness.led == .fault)
        harness.drain()
        #expect(harness.machine.state == .fault)
    }

    /// SIGTERM (issue #19 follow-up): the call in progress ends with `bye "hangup"` and an outcome, so the
    /// journal and the visitor log keep it; a resting device does nothing.
    @Test func shuttingDownEndsTheCallWithAnOutcome() {
        var ringing = Harness()
        ringing.run(Script.ringWithPartner)
        ringing.send(.shuttingDown, at: 1)
        #expect(ringing.signals().last == .bye(.hangup))
        #expect(ringing.actions.contains(.leaveSession(sessionID: "s1")))
        #expect(ringing.outcomes() == [.unanswered(.shutdown)])

        var talking = Harness()
        talking.run(Script.inCall)
        talking.send(.shuttingDown, at: 5)
        #expect(talking.signals().last == .bye(.hangup))
        #expect(talking.actions.contains(.stopMedia(sessionID: "s1")))
        #expect(talking.outcomes() == [.answered(ended: .shutdown)])

        var resting = Harness()
        resting.send(.shuttingDown, at: 1)
        #expect(resting.outcomes().isEmpty && resting.signals().isEmpty)
        #expect(resting.machine.state == .idle)
    }
}
