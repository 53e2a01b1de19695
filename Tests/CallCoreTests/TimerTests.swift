import CallCore
import Testing

@Suite("Timers")
struct TimerTests {
    @Test func staleTimersProduceNoActions() {
        var harness = Harness(CallPolicy(answerMode: .autoAfter(.seconds(5))))
        harness.run(Script.answered)  // the accept cancels ring, expiry and auto-answer timers
        for kind in [CallTimerKind.ringTimeout, .rowExpiry, .autoAnswer] {
            #expect(harness.fire(kind) == [])
        }
        #expect(harness.machine.state.name == "connecting")
    }

    @Test func aTimerIsHandledOnlyOnce() {
        var harness = Harness()
        harness.run(Script.ringWithPartner)
        #expect(harness.fire(.ringTimeout)?.isEmpty == false)
        #expect(harness.fire(.ringTimeout) == [])
        #expect(harness.outcomes() == [.unanswered(.ringTimeout)])
    }

    @Test func neverArmedTimerIsIgnored() {
        var harness = Harness()
        harness.run(Script.ringWithPartner)
        #expect(harness.send(.timerFired(CallTimer(kind: .ringTimeout, generation: 9_999)), at: 40).isEmpty)
        #expect(harness.machine.state.name == "ringing")
    }

    @Test func dueTimerIsHandledBeforeALaterEventAndCancelled() {
        var harness = Harness(CallPolicy(ringTimeout: .seconds(30)))
        harness.run(Script.ringWithPartner)
        let ring = harness.lastArmed[.ringTimeout]
        let output = harness.send(.accept, at: 45)
        #expect(ring.map { output.contains(.cancelTimer($0)) } == true)
        #expect(harness.outcomes() == [.unanswered(.ringTimeout)])
        #expect(harness.summaries.first?.totalDuration == .seconds(30))
        #expect(harness.mediaStarts() == 0)
    }

    @Test func generationsAreUniqueAcrossCalls() {
        var harness = Harness(CallPolicy(answerMode: .autoAfter(.seconds(2))))
        for call in 0..<5 {
            let start = Double(call) * 100
            harness.send(row("r\(call)", session: "s\(call)", expiresAt: start + 60), at: start)
            harness.send(.hangup, at: start + 1)
        }
        let armed = harness.actions.compactMap { if case .armTimer(let timer, _) = $0 { timer } else { nil } }
        #expect(armed.count == 15)
        #expect(Set(armed.map(\.generation)).count == armed.count)
    }

    @Test func instantsGoingBackwardsAreClamped() {
        var harness = Harness(CallPolicy(ringTimeout: .seconds(30)))
        harness.send(row(), at: 10)
        harness.send(.partnerJoins, at: 5)  // earlier than the row: treated as 10
        harness.send(.accept, at: 6)
        #expect(harness.summaries.isEmpty)
        harness.send(.hangup, at: 12)
        #expect(harness.summaries.first?.ringToAnswer == .zero)
        #expect(harness.summaries.first?.totalDuration == .seconds(2))
    }
}
