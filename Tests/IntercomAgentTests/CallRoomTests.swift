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
}
