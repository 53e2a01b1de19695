import CallCore
import Testing

@Suite("Viewers")
struct ViewerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let maxViewers: Int
        let requests: Int
        var testDescription: String { "max \(maxViewers), \(requests) requests" }
    }

    @Test(arguments: [
        Case(maxViewers: 0, requests: 1), Case(maxViewers: 1, requests: 1), Case(maxViewers: 1, requests: 3),
        Case(maxViewers: 2, requests: 2), Case(maxViewers: 2, requests: 5),
    ])
    func admitsUpToMaxViewers(_ testCase: Case) {
        var harness = Harness(CallPolicy(maxViewers: testCase.maxViewers))
        harness.run(Script.inCall)
        for index in 0..<testCase.requests {
            harness.send(.remote(.viewerJoinRequest(peer: "v\(index)")), at: 3 + Double(index))
        }
        let admitted = (0..<min(testCase.requests, testCase.maxViewers)).map { "v\($0)" }
        let refused = (admitted.count..<testCase.requests).map { "v\($0)" }
        #expect(harness.actions.compactMap { if case .admitViewer("s1", let peer) = $0 { peer } else { nil } }
            == admitted)
        #expect(harness.actions.compactMap { if case .refuseViewer("s1", let peer) = $0 { peer } else { nil } }
            == refused)
        #expect(harness.machine.state.context?.viewers == admitted)
        #expect(harness.mediaStarts() == 1)
    }

    @Test func aViewerLeavingFreesItsSlot() {
        var harness = Harness(CallPolicy(maxViewers: 1))
        harness.run(Script.inCall)
        harness.send(.remote(.viewerJoinRequest(peer: "v1")), at: 3)
        harness.send(.remote(.viewerJoinRequest(peer: "v2")), at: 4)
        #expect(harness.send(.remote(.peerLeft(peer: "v1")), at: 5).contains(.removeViewer(sessionID: "s1", peer: "v1")))
        harness.send(.remote(.viewerJoinRequest(peer: "v2")), at: 6)
        #expect(harness.machine.state.context?.viewers == ["v2"])
        #expect(harness.machine.state.name == "inCall")
    }

    @Test func viewersCannotJoinBeforeTheAnswer() {
        var harness = Harness(CallPolicy(maxViewers: 3))
        harness.run(Script.ringWithPartner)
        let output = harness.send(.remote(.viewerJoinRequest(peer: "v1")), at: 1)
        #expect(output == [.refuseViewer(sessionID: "s1", peer: "v1")])
    }

    @Test func aViewersByeDoesNotEndTheCall() {
        var harness = Harness(CallPolicy(maxViewers: 1))
        harness.run(Script.inCall)
        harness.send(.remote(.viewerJoinRequest(peer: "v1")), at: 3)
        harness.send(.bye(.hangup, from: "v1"), at: 4)
        #expect(harness.machine.state.name == "inCall")
        #expect(harness.outcomes().isEmpty)
    }
}
