import Foundation
import IntercomServer
import Testing

/// parse-wire.md §4 batch: prefixed paths, results in input order, per-item success and error.
@Suite struct BatchTests {
    @Test func resultsComeBackInOrderWithPerItemErrors() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await client.anonymousUser()
            let reply = try await client.send(.post, "/parse/batch", body: ["requests": [
                ["method": "POST", "path": "/parse/classes/ActiveSessions",
                 "body": ["callerID": .string(caller.objectId), "receiverID": "r1"]],
                ["method": "DELETE", "path": "/parse/classes/ActiveSessions/doesNotExist"],
                ["method": "POST", "path": "/parse/classes/ActiveSessions",
                 "body": ["callerID": .string(caller.objectId), "receiverID": "r2"]],
                ["method": "POST", "path": "/parse/classes/Nope", "body": [:]],
                ["method": "GET", "path": "/parse/classes/ActiveSessions", "body": ["where": ["receiverID": "r1"]]],
            ], "transaction": false], token: caller.sessionToken)
            #expect(reply.status == 200)
            let items = try #require(reply.json.arrayValue)
            #expect(items.count == 5)
            let first = try #require(items[0]["success"])
            #expect(first["objectId"] != nil)
            #expect(first["sessionID"] != nil)
            #expect(items[1] == ["error": ["code": 101, "error": "Object not found."]])
            #expect(items[2]["success"]?["objectId"] != nil)
            #expect(items[2]["success"]?["objectId"] != first["objectId"])
            #expect(items[3]["error"]?["code"] == 119)
            #expect(items[4]["success"]?["results"]?.arrayValue?.first?["objectId"] == first["objectId"])
        }
    }

    @Test func laterItemsSeeEarlierWrites() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let device = try await client.anonymousUser()
            let created = try await client.create("ActiveUsers", ObjectTests.device(device), as: device)
            let path = "/parse/classes/ActiveUsers/\(created["objectId"]?.stringValue ?? "")"
            let reply = try await client.send(.post, "/parse/batch", body: ["requests": [
                ["method": "PUT", "path": .string(path), "body": ["userTitle": "renamed"]],
                ["method": "GET", "path": .string(path)],
                ["method": "DELETE", "path": .string(path)],
                ["method": "GET", "path": .string(path)],
            ]], token: device.sessionToken)
            let items = reply.json.arrayValue ?? []
            #expect(items.count == 4)
            #expect(items[0]["success"]?["updatedAt"] != nil)
            #expect(items[1]["success"]?["userTitle"] == "renamed")
            #expect(items[2] == ["success": [:]])
            #expect(items[3]["error"]?["code"] == 101)
        }
    }

    @Test func malformedBatchesAre107() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let notArray = try await client.send(.post, "/parse/batch", body: ["requests": "nope"])
            #expect(notArray.json == ["code": 107, "error": "requests must be an array"])
            let unprefixed = try await client.send(.post, "/parse/batch", body: ["requests": [
                ["method": "GET", "path": "/classes/ActiveUsers"],
            ]])
            #expect(unprefixed.json == ["code": 107, "error": "cannot route batch path /classes/ActiveUsers"])
            let nested = try await client.send(.post, "/parse/batch", body: ["requests": [
                ["method": "POST", "path": "/parse/batch", "body": ["requests": []]],
            ]])
            #expect(nested.errorCode == 107)
            let empty = try await client.send(.post, "/parse/batch", body: ["requests": []])
            #expect(empty.json == [])
        }
    }
}
