import CallCore
import Testing

@Suite("Call rows: expiry and duplicates")
struct RowTriageTests {
    @Test(arguments: [AnswerMode.auto, .button, .autoAfter(.seconds(1))])
    func expiredRowIsDeletedAndIgnored(mode: AnswerMode) {
        var harness = Harness(CallPolicy(answerMode: mode))
        let output = harness.send(row(expiresAt: 10), at: 10)
        #expect(output.first == .deleteCallRow(rowID: "r1"))
        #expect(!output.contains { if case .joinSession = $0 { true } else { false } })
        #expect(!output.contains { if case .sendSignal = $0 { true } else { false } })
        #expect(harness.outcomes() == [.unanswered(.expired)])
        #expect(harness.machine.state == .idle)
    }

    @Test func rowExpiringWhileRingingEndsTheRing() {
        var harness = Harness(CallPolicy(answerMode: .button, ringTimeout: .seconds(30)))
        harness.send(row(expiresAt: 12), at: 0)
        harness.send(.partnerJoins, at: 1)
        harness.fire(.rowExpiry)
        #expect(harness.outcomes() == [.unanswered(.expired)])
        #expect(harness.signals() == [.ringing, .bye(.timeout)])
        #expect(harness.fire(.ringTimeout) == [])
    }

    struct Duplicate: Sendable, CustomTestStringConvertible {
        let name: String
        let before: [Step]
        let at: Double
        var testDescription: String { name }
    }

    @Test(arguments: [
        Duplicate(name: "while ringing", before: Script.ringWithPartner, at: 1),
        Duplicate(name: "while in call", before: Script.inCall, at: 3),
        Duplicate(name: "after the call", before: Script.inCall + [.send(.hangup, at: 3), .send(.mediaDown, at: 4)], at: 5),
        Duplicate(name: "after it was refused as expired", before: [.send(row(expiresAt: 0), at: 1)], at: 2),
    ])
    func duplicateRowIsHandledOnce(_ duplicate: Duplicate) {
        var harness = Harness(CallPolicy(answerMode: .button))
        harness.run(duplicate.before)
        let stateBefore = harness.machine.state
        let outcomesBefore = harness.outcomes()
        #expect(harness.send(row(), at: duplicate.at).isEmpty)
        #expect(harness.machine.state == stateBefore)
        #expect(harness.outcomes() == outcomesBefore)
        #expect(harness.actions.filter { $0 == .deleteCallRow(rowID: "r1") }.count == 1)
    }
}
