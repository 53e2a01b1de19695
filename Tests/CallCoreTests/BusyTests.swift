import CallCore
import Testing

@Suite("Busy policy")
struct BusyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let behaviour: BusyBehaviour
        let firstCall: [Step]
        let firstState: String
        var testDescription: String { "\(behaviour) while \(firstState)" }
    }

    static let cases: [Case] = [BusyBehaviour.reject, .ignore].flatMap { behaviour in
        [
            Case(behaviour: behaviour, firstCall: Script.ringWithPartner, firstState: "ringing"),
            Case(behaviour: behaviour, firstCall: Script.answered, firstState: "connecting"),
            Case(behaviour: behaviour, firstCall: Script.inCall, firstState: "inCall"),
            Case(behaviour: behaviour, firstCall: Script.inCall + [.send(.hangup, at: 3)], firstState: "ending"),
        ]
    }

    @Test(arguments: cases)
    func secondCallFollowsBusyPolicy(_ testCase: Case) {
        var harness = Harness(CallPolicy(answerMode: .button, busyBehaviour: testCase.behaviour))
        harness.run(testCase.firstCall)
        let stateBefore = harness.machine.state
        #expect(stateBefore.name == testCase.firstState)

        let output = harness.send(row("r2", session: "s2", callerID: "bob", title: "Bob"), at: 4)

        var expected: [CallAction] = []
        if testCase.behaviour == .reject {
            expected += [
                .joinSession(sessionID: "s2", role: .publisher),
                .sendSignal(sessionID: "s2", to: nil, .bye(.busy)),
                .leaveSession(sessionID: "s2"),
            ]
        }
        #expect(Array(output.prefix(expected.count)) == expected)
        #expect(harness.outcomes(session: "s2") == [.unanswered(.busy)])
        #expect(harness.machine.state == stateBefore)
        #expect(!output.contains { action in
            switch action {
            case .sendSignal("s1", _, _), .leaveSession("s1"), .stopMedia, .armTimer, .cancelTimer: true
            default: false
            }
        })
    }

    @Test func secondRowForTheSameRoomIsNotRefused() {
        var harness = Harness()
        harness.run(Script.ringWithPartner)
        let output = harness.send(row("r1-again", session: "s1"), at: 1)
        #expect(output == [])
        #expect(harness.machine.state.name == "ringing")
    }
}
