import CallCore
import Testing

@Suite("Call rows: expiry")
struct RowTriageTests {
    @Test(arguments: [AnswerMode.auto, .button, .autoAfter(.seconds(1))])
    func expiredRowIsDeletedAndIgnored(mode: AnswerMode) {
        var harness = Harness(CallPolicy(answerMode: mode))
        let output = harness.send(row(expiresAt: 10), at: 10)
        #expect(!output.contains { if case .deleteCallRow = $0 { true } else { false } })  // the intake's job
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
}
