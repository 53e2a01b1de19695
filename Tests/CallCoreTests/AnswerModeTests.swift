import CallCore
import Testing

@Suite("Answer modes")
struct AnswerModeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let mode: AnswerMode
        let steps: [Step]
        let expectedState: String
        let expectedMediaStarts: Int
        let expectedRinging: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "auto answers at once and offers when the caller is in the room", mode: .auto,
            steps: Script.ringWithPartner, expectedState: "connecting", expectedMediaStarts: 1,
            expectedRinging: true),
        Case(
            name: "auto waits for the caller before starting media", mode: .auto,
            steps: [.send(row(), at: 0)], expectedState: "connecting", expectedMediaStarts: 0,
            expectedRinging: true),
        Case(
            name: "button rings and sends ringing", mode: .button,
            steps: Script.ringWithPartner + [.send(.mediaUp, at: 5)], expectedState: "ringing",
            expectedMediaStarts: 0, expectedRinging: true),
        Case(
            name: "button answers on the accept press", mode: .button,
            steps: Script.answered, expectedState: "connecting", expectedMediaStarts: 1, expectedRinging: true),
        Case(
            name: "auto-after rings until its delay", mode: .autoAfter(.seconds(5)),
            steps: Script.ringWithPartner + [.send(.remote(.answer(from: "p1")), at: 4.999)],
            expectedState: "ringing", expectedMediaStarts: 0, expectedRinging: true),
        Case(
            name: "auto-after answers when its delay fires", mode: .autoAfter(.seconds(5)),
            steps: Script.ringWithPartner + [.fire(.autoAnswer)], expectedState: "connecting",
            expectedMediaStarts: 1, expectedRinging: true),
        Case(
            name: "auto-after answers on an event past its deadline, before the timer is delivered",
            mode: .autoAfter(.seconds(5)),
            steps: Script.ringWithPartner + [.send(.remote(.answer(from: "p1")), at: 6)],
            expectedState: "connecting", expectedMediaStarts: 1, expectedRinging: true),
        Case(
            name: "auto-after answers early on the accept press", mode: .autoAfter(.seconds(5)),
            steps: Script.answered, expectedState: "connecting", expectedMediaStarts: 1, expectedRinging: true),
    ]

    @Test(arguments: cases)
    func answerMode(_ testCase: Case) {
        var harness = Harness(CallPolicy(answerMode: testCase.mode))
        harness.run(testCase.steps)
        #expect(harness.machine.state.name == testCase.expectedState)
        #expect(harness.mediaStarts() == testCase.expectedMediaStarts)
        #expect(harness.signals().contains(.ringing) == testCase.expectedRinging)
        // `ringing` goes to whoever is in the room as soon as the device joined, before any offer.
        if let join = harness.actions.firstIndex(of: .joinSession(sessionID: "s1", role: .publisher)) {
            #expect(harness.actions.dropFirst(join + 1).first == .sendSignal(sessionID: "s1", to: nil, .ringing))
        }
        #expect(harness.outcomes().isEmpty)
        if testCase.expectedMediaStarts == 1 {
            let plan = MediaPlan(video: true, audio: true, negotiation: .sendOffer)
            #expect(harness.actions.contains(.startMedia(sessionID: "s1", peer: "p1", plan)))
        }
    }

    @Test func mediaPlanFollowsWhatTheCallerAskedFor() {
        var harness = Harness(CallPolicy(answerMode: .auto))
        harness.send(row(video: false, audio: true), at: 0)
        harness.send(.partnerJoins, at: 1)
        let plan = MediaPlan(video: false, audio: true, negotiation: .sendOffer)
        #expect(harness.actions.contains(.startMedia(sessionID: "s1", peer: "p1", plan)))
    }

    @Test func autoAnswerDelayBeyondRingTimeoutMeansTheRingTimesOut() {
        var harness = Harness(CallPolicy(answerMode: .autoAfter(.seconds(40)), ringTimeout: .seconds(30)))
        harness.run(Script.ringWithPartner)
        harness.drain()
        #expect(harness.outcomes() == [.unanswered(.ringTimeout)])
        #expect(harness.mediaStarts() == 0)
    }
}
