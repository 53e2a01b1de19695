@testable import IntercomServer
import ParseWire
import Testing

/// parse-wire.md §8's event choice, as a table: what was matched before and after decides the event.
@Suite struct LiveQueryEventSelectionTests {
    static func object(_ title: String, extra: [String: JSONValue] = [:]) -> StoredObject {
        StoredObject(objectId: "o1", createdAt: 1, updatedAt: 2, fields: ["userTitle": .string(title)].merging(extra) { $1 })
    }

    static func kind(_ change: ObjectChange, watch: [String]? = nil) -> LiveQueryEventKind? {
        LiveQueryEventSelection.event(for: change, matches: { $0["userTitle"] == "Gate 3" }, watch: watch)?.0
    }

    @Test(arguments: [
        (nil, "Gate 3", LiveQueryEventKind.create),
        ("Gate 3", "Gate 3", .update),
        ("Gate 3", "Gate 4", .leave),
        ("Gate 4", "Gate 3", .enter),
    ] as [(String?, String, LiveQueryEventKind)])
    func savesGiveTheEventOfParseServer(before: String?, after: String, expected: LiveQueryEventKind) {
        let change = ObjectChange(className: "ActiveUsers", original: before.map { Self.object($0) },
                                  current: Self.object(after))
        #expect(Self.kind(change) == expected)
    }

    @Test func aSaveThatNeverMatchedGivesNothing() {
        #expect(Self.kind(.updated("ActiveUsers", from: Self.object("A"), to: Self.object("B"))) == nil)
        #expect(Self.kind(.created("ActiveUsers", Self.object("B"))) == nil)
    }

    @Test func deletesGiveDeleteOnlyWhenTheRowMatched() {
        #expect(Self.kind(.deleted("ActiveUsers", Self.object("Gate 3"))) == .delete)
        #expect(Self.kind(.deleted("ActiveUsers", Self.object("Gate 9"))) == nil)
    }

    @Test func watchSuppressesUpdatesOfOtherFields() {
        let before = Self.object("Gate 3", extra: ["answerMode": "auto", "capabilities": ["audio"]])
        let sameWatched = Self.object("Gate 3", extra: ["answerMode": "auto", "capabilities": ["audio", "video"]])
        let changedWatched = Self.object("Gate 3", extra: ["answerMode": "button"])
        #expect(Self.kind(.updated("ActiveUsers", from: before, to: sameWatched), watch: ["answerMode"]) == nil)
        #expect(Self.kind(.updated("ActiveUsers", from: before, to: changedWatched), watch: ["answerMode"]) == .update)
        // Leaving the query is reported whatever is watched.
        #expect(Self.kind(.updated("ActiveUsers", from: before, to: Self.object("X")), watch: ["answerMode"]) == .leave)
    }
}

/// Rooms without sockets: viewers are capped, a reconnecting party replaces itself, signals stay in a room.
@Suite struct SignalingRoomTableTests {
    @Test func viewersBeyondTheLimitAreRefusedButPartiesAreNot() throws {
        var table = SignalingRoomTable(maxViewers: 1)
        let deviceAdmission = table.join(sessionID: "S", callerID: "caller", userID: "dev", role: .publisher, name: "Gate")
        let device = try #require(deviceAdmission)
        #expect(device.others.isEmpty)
        let viewerAdmission = table.join(sessionID: "S", callerID: "caller", userID: "dev", role: .subscriber, name: nil)
        let viewer = try #require(viewerAdmission)
        #expect(viewer.others.map(\.peerId) == [device.member.peerId])
        let refused = table.join(sessionID: "S", callerID: "caller", userID: "caller", role: .subscriber, name: nil)
        #expect(refused == nil)
        let callerAdmission = table.join(sessionID: "S", callerID: "caller", userID: "caller", role: .publisher, name: "Visitor")
        let caller = try #require(callerAdmission)
        #expect(caller.others.count == 2)
        #expect(table.peerCount == 3)
    }

    @Test func aPartyJoiningAgainReplacesItsOldEntry() throws {
        var table = SignalingRoomTable(maxViewers: 4)
        let firstAdmission = table.join(sessionID: "S", callerID: "caller", userID: "dev", role: .publisher, name: nil)
        let first = try #require(firstAdmission)
        let secondAdmission = table.join(sessionID: "S", callerID: "caller", userID: "dev", role: .publisher, name: nil)
        let second = try #require(secondAdmission)
        #expect(second.replaced == first.member)
        #expect(table.member(first.member.peerId) == nil)
        #expect(table.peerCount == 1)
        let again = table.leave(first.member.peerId)
        #expect(again == nil)
    }

    @Test func signalsNeverCrossRooms() throws {
        var table = SignalingRoomTable(maxViewers: 4)
        let aAdmission = table.join(sessionID: "S1", callerID: "caller", userID: "a", role: .publisher, name: nil)
        let a = try #require(aAdmission)
        let bAdmission = table.join(sessionID: "S1", callerID: "caller", userID: "b", role: .publisher, name: nil)
        let b = try #require(bAdmission)
        let cAdmission = table.join(sessionID: "S2", callerID: "caller", userID: "c", role: .publisher, name: nil)
        let c = try #require(cAdmission)
        #expect(table.recipient(b.member.peerId, from: a.member.peerId) == b.member)
        #expect(table.recipient(c.member.peerId, from: a.member.peerId) == nil)
        let leaving = table.leave(a.member.peerId)
        let left = try #require(leaving)
        #expect(left.remaining == [b.member])
        #expect(table.recipient(b.member.peerId, from: a.member.peerId) == nil)
    }
}
