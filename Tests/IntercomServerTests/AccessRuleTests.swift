import Foundation
import IntercomServer
import Testing

/// Row access (AccessPolicy): one ActiveUsers row per user, writable only by it; ActiveSessions visible and
/// deletable only by their caller and receiver.
@Suite struct AccessRuleTests {
    @Test func anotherUserCannotReadOrDeleteACall() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await client.anonymousUser()
            let receiver = try await client.anonymousUser()
            let stranger = try await client.anonymousUser()
            let call = try await client.create("ActiveSessions", CallSessionTests.call(from: caller, to: receiver.objectId),
                                               as: caller)
            let path = "/parse/classes/ActiveSessions/\(call["objectId"]?.stringValue ?? "")"

            let get = try await client.send(.get, path, token: stranger.sessionToken)
            #expect(get.json == ["code": 101, "error": "Object not found."])
            let byReceiver = try await client.query("ActiveSessions", ["where": ["receiverID": .string(receiver.objectId)]],
                                                    token: stranger.sessionToken)
            #expect(byReceiver.results.isEmpty)
            let publicQuery = try await client.query("ActiveSessions")
            #expect(publicQuery.results.isEmpty)
            let update = try await client.send(.put, path, body: ["isVideo": false], token: stranger.sessionToken)
            #expect(update.status == 404)
            let delete = try await client.send(.delete, path, token: stranger.sessionToken)
            #expect(delete.status == 404)

            let seen = try await client.query("ActiveSessions", ["where": ["receiverID": .string(receiver.objectId)]],
                                              token: receiver.sessionToken)
            #expect(seen.objectIds == [call["objectId"]?.stringValue ?? "?"])
            let hijack = try await client.send(.put, path, body: ["receiverID": .string(stranger.objectId)],
                                               token: caller.sessionToken)
            #expect(hijack.errorCode == 119)
            #expect(try await client.send(.delete, path, token: receiver.sessionToken).json == [:])
        }
    }

    @Test func devicesWriteOnlyTheirOwnPresenceRow() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let device = try await client.anonymousUser()
            let other = try await client.anonymousUser()
            let row = try await client.create("ActiveUsers", ObjectTests.device(device), as: device)
            let path = "/parse/classes/ActiveUsers/\(row["objectId"]?.stringValue ?? "")"

            // Everyone can see the directory, even without a session.
            #expect(try await client.send(.get, path).status == 200)

            let update = try await client.send(.put, path, body: ["userTitle": "pwned"], token: other.sessionToken)
            #expect(update.json == ["code": 101, "error": "Object not found."])
            #expect(try await client.send(.delete, path, token: other.sessionToken).status == 404)
            #expect(try await client.send(.put, path, body: ["userTitle": "x"]).status == 404)

            let spoof = try await client.create("ActiveUsers", ObjectTests.device(device), as: other)
            #expect(spoof.json == ["code": 119, "error": "Permission denied for action create on class ActiveUsers."])
            let handOver = try await client.send(.put, path, body: ["userID": .string(other.objectId)],
                                                 token: device.sessionToken)
            #expect(handOver.errorCode == 119)
            let anonymous = try await client.create("ActiveUsers", ["userTitle": "ghost"], as: nil)
            #expect(anonymous.errorCode == 119)

            #expect(try await client.send(.get, path).json["userTitle"] == "Gate 3")
        }
    }

    @Test func oneRowPerUserAndUserIDDefaultsToTheSessionUser() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let device = try await client.anonymousUser()
            let first = try await client.create("ActiveUsers", ["userTitle": "Gate"], as: device)
            #expect(first.status == 201)
            let fetched = try await client.send(.get, "/parse/classes/ActiveUsers/\(first["objectId"]?.stringValue ?? "")")
            #expect(fetched["userID"] == .string(device.objectId))
            let second = try await client.create("ActiveUsers", ObjectTests.device(device), as: device)
            #expect(second.status == 400)
            #expect(second.json == ["code": 137, "error": "A duplicate value for a field with unique values was provided"])
            // The design's upsert: query userID == me, then PUT.
            let mine = try await client.query("ActiveUsers", ["where": ["userID": .string(device.objectId)]])
            #expect(mine.objectIds == [first["objectId"]?.stringValue ?? "?"])
        }
    }
}
