@testable import IntercomAgent
import CallCore
import ParseWire
import Testing

/// The room table's bookkeeping: early signals wait for their peer's media session, "to everyone" signals
/// wait for the first arrival, and a peer that leaves takes its media and early signals with it.
@Suite struct CallRoomTests {
    final class NoMedia: CallMediaSession {
        func start(plan: MediaPlan, iceServers: [IceServer], early: [SignalPayload],
                   signal: @escaping @Sendable (SignalPayload) async -> Void,
                   state: @escaping @Sendable (MediaState) -> Void) async throws {}
        func remote(_ payload: SignalPayload) async {}
        func stop() async {}
    }

    static let route = CallRoom.Route(signalURL: "ws://127.0.0.1:1337/signal", publisherToken: "pub",
                                      subscriberToken: "sub", iceServers: [])

    /// A received text is logged with its sender's name (issue #22): names come with the join and go with the peer.
    @Test func peersNamesAreKeptWhileTheyArePresent() {
        var room = CallRoom(route: Self.route)
        room.named([SignalingPeer(peerId: "p1", name: "Visitor"), SignalingPeer(peerId: "p2")])
        _ = room.arrived(["p1", "p2"])
        #expect(room.names == ["p1": "Visitor"])
        room.named([SignalingPeer(peerId: "p3", name: "Viewer")])
        _ = room.left("p1")
        #expect(room.names == ["p3": "Viewer"])
    }

    @Test func signalsBeforeAPeersMediaAreHandedOverInOrderAtItsStart() {
        var room = CallRoom(route: Self.route)
        let offer = SignalPayload.offer(sdp: "v=0 offer")
        let candidate = SignalPayload.candidate(nil)
        #expect(room.deliver(offer, from: "p1") == nil)
        #expect(room.deliver(candidate, from: "p1") == nil)
        #expect(room.deliver(.answer(sdp: "v=0 other"), from: "p2") == nil)
        let early = room.startMedia(.init(session: NoMedia(), number: 1, carriesTheCall: true), for: "p1")
        #expect(early == [offer, candidate])
        #expect(room.deliver(.candidate(nil), from: "p1")?.number == 1, "later signals go straight to the session")
        #expect(room.startMedia(.init(session: NoMedia(), number: 2, carriesTheCall: false), for: "p2").count == 1)
    }

    @Test func broadcastsWaitForTheFirstArrivalThenGoToEveryonePresent() {
        var room = CallRoom(route: Self.route)
        #expect(room.broadcast(.ringing).isEmpty)
        #expect(room.hasPendingBroadcasts)
        #expect(room.arrived([]) == [], "nobody there yet")
        #expect(room.arrived(["caller"]) == [.ringing])
        #expect(!room.hasPendingBroadcasts)
        #expect(room.arrived(["viewer"]) == [], "sent once")
        #expect(room.broadcast(.bye(.hangup)) == ["caller", "viewer"])
    }

    @Test func aPeerThatLeavesTakesItsMediaAndEarlySignals() {
        var room = CallRoom(route: Self.route)
        _ = room.arrived(["p1", "p2"])
        _ = room.startMedia(.init(session: NoMedia(), number: 1, carriesTheCall: true), for: "p1")
        _ = room.deliver(.offer(sdp: "v=0"), from: "p2")
        #expect(room.left("p1")?.number == 1)
        #expect(room.left("p2") == nil)
        #expect(room.present.isEmpty)
        // p2 comes back: its old offer is gone.
        #expect(room.startMedia(.init(session: NoMedia(), number: 3, carriesTheCall: false), for: "p2").isEmpty)
        #expect(room.removeAllMedia().map(\.number) == [3])
    }

    /// A room that moved (its backend instance died): everyone rejoins under a new peer id; the media session,
    /// name and early signals of a party follow it when the same user comes back in the same role.
    @Test func aPartyLostByOurRejoinComesBackUnderItsNewId() {
        var room = CallRoom(route: Self.route)
        let caller = SignalingPeer(peerId: "p1", name: "Visitor", role: "publisher", userId: "alice")
        room.socketJoined(listing: [caller])
        room.named([caller])
        _ = room.arrived(["p1"])
        _ = room.startMedia(.init(session: NoMedia(), number: 7, carriesTheCall: true), for: "p1")
        // Our socket rejoins a fresh room: nobody listed yet, so the caller is away, its media kept.
        room.socketJoined(listing: [])
        #expect(room.present.isEmpty)
        #expect(room.peer(ofMedia: 7) == "p1")
        // Someone else with the same role is not the caller; the caller under a new id is.
        #expect(room.returning(SignalingPeer(peerId: "p5", role: "publisher", userId: "mallory")) == nil)
        #expect(room.returning(SignalingPeer(peerId: "p6", role: "subscriber", userId: "alice")) == nil)
        #expect(room.returning(SignalingPeer(peerId: "p9", name: "Visitor", role: "publisher", userId: "alice")) == "p1")
        #expect(room.peer(ofMedia: 7) == "p9")
        #expect(room.media["p1"] == nil)
        // Only once.
        #expect(room.returning(SignalingPeer(peerId: "p10", role: "publisher", userId: "alice")) == nil)
    }

    @Test func aDroppedPartyIsAwayAndOneThatLeftIsGone() {
        var room = CallRoom(route: Self.route)
        let caller = SignalingPeer(peerId: "p1", role: "publisher", userId: "alice")
        room.named([caller])
        _ = room.arrived(["p1"])
        _ = room.startMedia(.init(session: NoMedia(), number: 3, carriesTheCall: true), for: "p1")
        room.setAway("p1")
        #expect(room.present.isEmpty && room.peer(ofMedia: 3) == "p1")
        #expect(room.returning(SignalingPeer(peerId: "p2", role: "publisher", userId: "alice")) == "p1")
        // A peer that left for good takes its media with it and does not come back as someone away.
        #expect(room.left("p2")?.number == 3)
        #expect(room.returning(SignalingPeer(peerId: "p4", role: "publisher", userId: "alice")) == nil)
    }

    @Test func theFirstJoinMakesNobodyAway() {
        var room = CallRoom(route: Self.route)
        _ = room.arrived(["p1"])
        room.socketJoined(listing: [])
        #expect(room.present == ["p1"])
    }
}
