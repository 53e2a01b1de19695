import CallCore
import Testing

/// A party's signaling socket can drop mid-call (ping timeout, a network change, the backend instance that held
/// the room dying) while its media keeps flowing peer to peer; it rejoins under a new `peerId`.
@Suite("Partner returns")
struct PartnerReturnTests {
    @Test func aDroppedPartnerDoesNotEndACallWithMediaUp() {
        var harness = Harness()
        harness.run(Script.inCall)
        harness.send(.remote(.peerDropped(peer: "p1")), at: 3)
        #expect(harness.machine.state.name == "inCall")
        #expect(harness.outcomes().isEmpty)
    }

    @Test func aPartnerDroppedBeforeMediaHasLeft() {
        var harness = Harness()
        harness.run(Script.answered)
        harness.send(.remote(.peerDropped(peer: "p1")), at: 1.5)
        #expect(harness.outcomes() == [.failed(.endedBeforeMedia, ended: .remoteLeft)])
    }

    @Test func aDroppedPartnerDoesNotEndARingingCall() {
        var harness = Harness()
        harness.run(Script.ringWithPartner)
        harness.send(.remote(.peerDropped(peer: "p1")), at: 0.8)
        #expect(harness.outcomes() == [.unanswered(.remoteLeft)])
    }

    @Test func theReturnedPartnerCanHangUpAndOpenTheDoor() {
        var harness = Harness(CallPolicy(allowDoorOpen: true))
        harness.run(Script.inCall)
        harness.send(.remote(.peerDropped(peer: "p1")), at: 3)
        harness.send(.remote(.peerReturned(old: "p1", new: "p7")), at: 4)
        #expect(harness.machine.state.context?.partner == "p7")
        #expect(harness.send(.remote(.doorOpenRequest(from: "p7")), at: 5).contains(.pulseDoor))
        // The old id is nobody now: its bye is ignored; the new one's ends the call.
        harness.send(.bye(from: "p1"), at: 6)
        #expect(harness.outcomes().isEmpty)
        harness.send(.bye(from: "p7"), at: 7)
        #expect(harness.outcomes() == [.answered(ended: .remoteBye(.hangup))])
    }

    @Test func aPartnerLostFromSightByOurOwnRejoinReturns() {
        // No drop was reported (our socket moved): the partner arrives again under a new id.
        var harness = Harness()
        harness.run(Script.inCall)
        harness.send(.remote(.peerReturned(old: "p1", new: "p2")), at: 3)
        #expect(harness.machine.state.context?.partner == "p2")
        #expect(harness.mediaStarts() == 1)  // the media session goes on; it is not started again
    }

    @Test func aReturningViewerKeepsItsSlot() {
        var harness = Harness(CallPolicy(maxViewers: 1))
        harness.run(Script.inCall)
        harness.send(.remote(.viewerJoinRequest(peer: "v1")), at: 3)
        harness.send(.remote(.peerReturned(old: "v1", new: "v2")), at: 4)
        #expect(harness.machine.state.context?.viewers == ["v2"])
    }

    @Test func anUnknownReturnIsAnArrival() {
        var harness = Harness()
        harness.run([.send(row(), at: 0)])
        harness.send(.remote(.peerReturned(old: "x", new: "p3")), at: 0.5)
        #expect(harness.machine.state.context?.partner == "p3")
    }
}
