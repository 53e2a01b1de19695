import CallCore
import Testing

@Suite("Allow-list")
struct AllowListTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let allow: Set<String>
        let callerID: String
        let title: String
        let allowed: Bool
        var testDescription: String { "\(allow.sorted()) vs \(callerID)/\(title): \(allowed)" }
    }

    static let cases: [Case] = [
        Case(allow: [], callerID: "anyone", title: "Anyone", allowed: true),
        Case(allow: ["u-alice"], callerID: "u-alice", title: "Whoever", allowed: true),
        Case(allow: ["u-alice"], callerID: "u-bob", title: "Bob", allowed: false),
        Case(allow: ["Front desk"], callerID: "u-42", title: "Front desk", allowed: true),
        Case(allow: ["Front desk"], callerID: "u-42", title: "front desk", allowed: false),
        Case(allow: ["u-alice", "Front desk"], callerID: "u-9", title: "Lobby", allowed: false),
        Case(allow: ["u-alice", "Front desk"], callerID: "u-alice", title: "Lobby", allowed: true),
    ]

    @Test(arguments: cases)
    func allowList(_ testCase: Case) {
        var harness = Harness(CallPolicy(answerMode: .button, allowCallers: testCase.allow))
        let output = harness.send(row(callerID: testCase.callerID, title: testCase.title), at: 0)
        #expect(output.first == .joinSession(sessionID: "s1", role: .publisher))
        if testCase.allowed {
            #expect(harness.machine.state.name == "ringing")
            #expect(harness.outcomes().isEmpty)
        } else {
            #expect(harness.machine.state == .idle)
            #expect(harness.outcomes() == [.unanswered(.notAllowed)])
            #expect(
                Array(output.prefix(3)) == [
                    .joinSession(sessionID: "s1", role: .publisher),
                    .sendSignal(sessionID: "s1", to: nil, .bye(.declined)),
                    .leaveSession(sessionID: "s1"),
                ])
            #expect(!output.contains { if case .armTimer = $0 { true } else { false } })
        }
    }
}
