import CallCore
import Testing

@Suite("Outgoing calls (call button)")
struct OutgoingCallTests {
    static let target = CallTarget.nearest(title: "Concierge", radiusMeters: 200)
    static let policy = CallPolicy(ringTimeout: .seconds(30), callTarget: target)

    /// Call button at 0, row created at 0.5, callee in the room at 1.
    static let dialed: [Step] = [
        .send(.call, at: 0),
        .send(.outgoingCallCreated(request: 1, rowID: "o1", sessionID: "s1"), at: 0.5),
        .send(.partnerJoins, at: 1),
    ]

    @Test func happyPath() {
        var harness = Harness(Self.policy)
        harness.send(.call, at: 0)
        #expect(harness.actions.contains(.createOutgoingCall(request: 1, target: Self.target)))
        #expect(harness.machine.state.name == "dialing")
        #expect(harness.led == .ringing)
        harness.send(.outgoingCallCreated(request: 1, rowID: "o1", sessionID: "s1"), at: 0.5)
        #expect(harness.actions.last { if case .joinSession = $0 { true } else { false } }
            == .joinSession(sessionID: "s1", role: .subscriber))
        harness.send(.remote(.ringing(from: "p1")), at: 1)
        #expect(harness.machine.state.name == "ringingRemote")
        harness.send(.remote(.offer(from: "p1")), at: 4)
        let plan = MediaPlan(video: true, audio: true, negotiation: .answerReceivedOffer)
        #expect(harness.actions.contains(.startMedia(sessionID: "s1", peer: "p1", plan)))
        #expect(harness.machine.state.name == "connecting")
        harness.send(.mediaUp, at: 5)
        #expect(harness.led == .inCall)
        harness.send(.bye(), at: 65)
        #expect(harness.outcomes() == [.answered(ended: .remoteBye(.hangup))])
        let summary = harness.summaries.first
        #expect(summary?.direction == .outgoing)
        #expect(summary?.ringToAnswer == .seconds(4))
        #expect(summary?.talkTime == .seconds(60))
        #expect(!harness.actions.contains(.deleteCallRow(rowID: "o1")))
        #expect(harness.fire(.ringTimeout) == [])
    }

    struct Ending: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        let outcome: CallOutcome
        let bye: ByeReason?
        var testDescription: String { name }
    }

    @Test(arguments: [
        Ending(
            name: "no answer", steps: OutgoingCallTests.dialed + [.fire(.ringTimeout)], outcome: .unanswered(.ringTimeout),
            bye: .timeout),
        Ending(
            name: "callee busy", steps: OutgoingCallTests.dialed + [.send(.bye(.busy), at: 2)], outcome: .unanswered(.remoteBye(.busy)),
            bye: nil),
        Ending(
            name: "cancelled while ringing", steps: OutgoingCallTests.dialed + [.send(.remote(.ringing(from: "p1")), at: 2), .send(.hangup, at: 3)],
            outcome: .unanswered(.cancelled), bye: .hangup),
        Ending(
            name: "room failed", steps: OutgoingCallTests.dialed + [.send(.remote(.sessionError("expired")), at: 2)],
            outcome: .unanswered(.sessionError("expired")), bye: nil),
    ])
    func unansweredOutgoingCallDeletesItsRow(_ ending: Ending) {
        var harness = Harness(Self.policy)
        harness.run(ending.steps)
        #expect(harness.outcomes() == [ending.outcome])
        #expect(harness.signals().last == ending.bye.map { .bye($0) })
        #expect(harness.actions.contains(.leaveSession(sessionID: "s1")))
        #expect(harness.actions.contains(.deleteCallRow(rowID: "o1")))
        #expect(harness.mediaStarts() == 0)
        #expect(harness.machine.state == .idle)
    }

    @Test func hangupBeforeTheRowExistsDeletesItWhenItArrives() {
        var harness = Harness(Self.policy)
        harness.send(.call, at: 0)
        harness.send(.hangup, at: 0.2)
        #expect(harness.summaries.map(\.outcome) == [.unanswered(.cancelled)])
        #expect(harness.machine.state == .idle)
        let late = harness.send(.outgoingCallCreated(request: 1, rowID: "o1", sessionID: "s1"), at: 0.5)
        #expect(late == [.deleteCallRow(rowID: "o1")])
    }

    @Test func failedRowCreationEndsTheAttempt() {
        var harness = Harness(Self.policy)
        harness.send(.call, at: 0)
        harness.send(.outgoingCallFailed(request: 1, reason: "HTTP 503"), at: 1)
        #expect(harness.summaries.map(\.outcome) == [.unanswered(.createFailed("HTTP 503"))])
        #expect(harness.machine.state == .idle)
        #expect(harness.live.isEmpty)
    }

    @Test func aRepeatedCreationReportIsIgnored() {
        var harness = Harness(Self.policy)
        harness.run(Self.dialed)
        #expect(harness.send(.outgoingCallCreated(request: 1, rowID: "o1", sessionID: "s1"), at: 2).isEmpty)
        harness.send(.remote(.offer(from: "p1")), at: 3)
        #expect(harness.send(.outgoingCallCreated(request: 1, rowID: "o1", sessionID: "s1"), at: 4).isEmpty)
        #expect(harness.machine.state.name == "connecting")
    }

    struct Ignored: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: CallPolicy
        let backendUp: Bool
        var testDescription: String { name }
    }

    @Test(arguments: [
        Ignored(name: "no target configured", policy: CallPolicy(), backendUp: true),
        Ignored(name: "offline", policy: OutgoingCallTests.policy, backendUp: false),
    ])
    func callButtonDoesNothing(_ ignored: Ignored) {
        var harness = Harness(ignored.policy, backendUp: ignored.backendUp)
        #expect(harness.send(.call, at: 1).isEmpty)
    }

    @Test func callButtonWhileRingingDoesNotDial() {
        var harness = Harness(Self.policy)
        harness.run(Script.ringWithPartner)
        #expect(harness.send(.call, at: 1).isEmpty)
        #expect(harness.machine.state.name == "ringing")
    }
}
