import Testing
@testable import IntercomServer

/// Issue #14 (1): a view-only peer can never act as a party, and only the caller opens the door.
@Suite struct SignalingRoleTests {
    /// A room with the device (receiver), the caller and one viewer.
    private struct Room {
        var table = SignalingRoomTable(maxViewers: 4)
        let device: String
        let caller: String
        let viewer: String

        init() throws {
            let deviceAdmission = table.join(sessionID: "S", callerID: "caller", userID: "dev", role: .publisher, name: nil)
            device = try #require(deviceAdmission).member.peerId
            let callerAdmission = table.join(sessionID: "S", callerID: "caller", userID: "caller", role: .publisher,
                                             name: nil)
            caller = try #require(callerAdmission).member.peerId
            let viewerAdmission = table.join(sessionID: "S", callerID: "caller", userID: "caller", role: .subscriber,
                                             name: nil)
            viewer = try #require(viewerAdmission).member.peerId
        }
    }

    private static func isForbidden(_ decision: SignalingRelayDecision) -> Bool {
        if case .forbidden = decision { true } else { false }
    }

    @Test func aViewerCannotOfferRingOrOpenTheDoor() throws {
        var room = try Room()
        for type in ["offer", "door", "ringing", "future-type"] {
            #expect(Self.isForbidden(room.table.authorize(type: type, from: room.viewer, to: room.caller)), "\(type)")
            #expect(Self.isForbidden(room.table.authorize(type: type, from: room.viewer, to: room.device)), "\(type)")
        }
    }

    @Test func aViewerMayAnswerOnlyThePublisherThatOfferedToIt() throws {
        var room = try Room()
        // Before any offer, even an answer is refused: the viewer cannot start a negotiation.
        #expect(Self.isForbidden(room.table.authorize(type: "answer", from: room.viewer, to: room.device)))
        #expect(room.table.authorize(type: "offer", from: room.device, to: room.viewer) == .relay)
        for type in ["answer", "candidate", "bye"] {
            #expect(room.table.authorize(type: type, from: room.viewer, to: room.device) == .relay, "\(type)")
            // The caller did not offer to the viewer: still refused there.
            #expect(Self.isForbidden(room.table.authorize(type: type, from: room.viewer, to: room.caller)), "\(type)")
        }
        #expect(Self.isForbidden(room.table.authorize(type: "offer", from: room.viewer, to: room.device)))
    }

    @Test func anOfferIsForgottenWhenThePublisherReconnects() throws {
        var room = try Room()
        #expect(room.table.authorize(type: "offer", from: room.device, to: room.viewer) == .relay)
        let again = room.table.join(sessionID: "S", callerID: "caller", userID: "dev", role: .publisher, name: nil)
        let device = try #require(again).member.peerId
        #expect(Self.isForbidden(room.table.authorize(type: "answer", from: room.viewer, to: device)))
    }

    @Test func onlyTheCallerMayAskForTheDoor() throws {
        var room = try Room()
        #expect(room.table.authorize(type: "door", from: room.caller, to: room.device) == .relay)
        #expect(Self.isForbidden(room.table.authorize(type: "door", from: room.device, to: room.caller)))
    }

    @Test func partiesRelayEverythingElseUntouched() throws {
        var room = try Room()
        for type in ["ringing", "offer", "answer", "candidate", "bye", "future-type"] {
            #expect(room.table.authorize(type: type, from: room.caller, to: room.device) == .relay, "\(type)")
            #expect(room.table.authorize(type: type, from: room.device, to: room.caller) == .relay, "\(type)")
        }
    }

    @Test func aSignalToSomeoneGoneIsDroppedNotRefused() throws {
        var room = try Room()
        #expect(room.table.authorize(type: "offer", from: room.caller, to: "p999") == .dropped)
    }

    @Test func membersCarryTheirUserIdForClients() throws {
        let room = try Room()
        #expect(room.table.member(room.viewer)?.peer.userId == "caller")
        #expect(room.table.member(room.viewer)?.peer.role == "subscriber")
    }
}
