import Foundation
import Hummingbird
import IntercomServer
import Testing

/// parse-wire.md §4: create, get, update, delete, schema inference and class rules.
@Suite struct ObjectTests {
    static func device(_ user: TestUser, title: String = "Gate 3", latitude: Double = 37.77,
                       longitude: Double = -122.41) -> JSONValue {
        ["userID": .string(user.objectId), "userTitle": .string(title), "userLocation": .geoPoint(latitude, longitude)]
    }

    @Test func createAnswers201WithLocationIdAndTimestamp() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            let reply = try await client.create("ActiveUsers", Self.device(user), as: user)
            #expect(reply.status == 201)
            #expect(Set(reply.json.objectValue?.keys ?? [:].keys) == ["objectId", "createdAt"])
            let objectId = try #require(reply["objectId"]?.stringValue)
            #expect(objectId.wholeMatch(of: UserTests.objectIdPattern) != nil)
            #expect(reply["createdAt"] == .string(ParseTimestamp.format(milliseconds: Int64(server.clock.now.timeIntervalSince1970 * 1000))))
            let location = try #require(reply.header("Location"))
            #expect(location.hasPrefix("http://"))
            #expect(location.hasSuffix("/parse/classes/ActiveUsers/\(objectId)"))
        }
    }

    @Test func getReturnsTheFullObject() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            var fields = Self.device(user).objectValue ?? [:]
            fields["capabilities"] = ["audio", "video"]
            let created = try await client.create("ActiveUsers", .object(fields), as: user)
            let id = try #require(created["objectId"]?.stringValue)
            let reply = try await client.send(.get, "/parse/classes/ActiveUsers/\(id)", token: user.sessionToken)
            #expect(reply.status == 200)
            var expected = fields
            expected["objectId"] = .string(id)
            expected["createdAt"] = created["createdAt"]
            expected["updatedAt"] = created["createdAt"]
            #expect(reply.json == .object(expected))

            let projected = try await client.send(.get, "/parse/classes/ActiveUsers/\(id)?keys=userTitle")
            #expect(Set(projected.json.objectValue?.keys ?? [:].keys) == ["objectId", "createdAt", "updatedAt", "userTitle"])
            let badParameter = try await client.send(.get, "/parse/classes/ActiveUsers/\(id)?limit=3")
            #expect(badParameter.json == ["code": 102, "error": "Improper encode of parameter"])
        }
    }

    @Test func updateAnswersUpdatedAtAndDeleteAnswersEmpty() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock)
        try await server.run { client in
            let user = try await client.anonymousUser()
            let created = try await client.create("ActiveUsers", Self.device(user), as: user)
            let path = "/parse/classes/ActiveUsers/\(created["objectId"]?.stringValue ?? "")"
            clock.advance(seconds: 5.5)
            let update = try await client.send(.put, path, body: ["userTitle": "Gate 4"], token: user.sessionToken)
            #expect(update.status == 200)
            #expect(update.json == ["updatedAt": .string(ParseTimestamp.format(milliseconds: Int64(clock.now.timeIntervalSince1970 * 1000)))])
            let fetched = try await client.send(.get, path)
            #expect(fetched["userTitle"] == "Gate 4")
            #expect(fetched["updatedAt"] == update["updatedAt"])
            #expect(fetched["createdAt"] == created["createdAt"])

            let delete = try await client.send(.delete, path, token: user.sessionToken)
            #expect(delete.status == 200)
            #expect(delete.json == [:])
            for method in [HTTPRequestMethod.get, .put, .delete] {
                let missing = try await client.send(method.value, path, body: method == .put ? ["userTitle": "x"] : nil,
                                                    token: user.sessionToken)
                #expect(missing.status == 404)
                #expect(missing.json == ["code": 101, "error": "Object not found."])
            }
        }
    }

    @Test func operationsIncrementAddRemoveAndDelete() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            var fields = Self.device(user).objectValue ?? [:]
            fields["capabilities"] = ["audio"]
            fields["rings"] = 1
            let created = try await client.create("ActiveUsers", .object(fields), as: user)
            let path = "/parse/classes/ActiveUsers/\(created["objectId"]?.stringValue ?? "")"
            let update = try await client.send(.put, path, body: [
                "rings": ["__op": "Increment", "amount": 2],
                "capabilities": ["__op": "AddUnique", "objects": ["audio", "door"]],
                "userTitle": ["__op": "Delete"],
            ], token: user.sessionToken)
            #expect(update["rings"] == 3)
            #expect(update["capabilities"] == ["audio", "door"])
            let fetched = try await client.send(.get, path)
            #expect(fetched["userTitle"] == nil)
            #expect(fetched["rings"] == 3)
            let removed = try await client.send(.put, path, body: ["capabilities": ["__op": "Remove", "objects": ["audio"]]],
                                                token: user.sessionToken)
            #expect(removed["capabilities"] == ["door"])
            let unknown = try await client.send(.put, path, body: ["rings": ["__op": "Multiply"]], token: user.sessionToken)
            #expect(unknown.errorCode == 107)
        }
    }

    @Test func clientObjectIdAndBadFieldNamesAre105() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            var fields = Self.device(user).objectValue ?? [:]
            fields["objectId"] = "abcdefghij"
            let withId = try await client.create("ActiveUsers", .object(fields), as: user)
            #expect(withId.json == ["code": 105, "error": "objectId is an invalid field name."])
            for name in ["1abc", "has space", "className", "a-b"] {
                var bad = Self.device(user).objectValue ?? [:]
                bad[name] = 1
                let reply = try await client.create("ActiveUsers", .object(bad), as: user)
                #expect(reply.status == 400)
                #expect(reply.json == ["code": 105, "error": .string("Invalid field name: \(name).")], "\(name)")
            }
        }
    }

    @Test func schemaMismatchAndSecondGeoPointAre111() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            var wrongType = Self.device(user).objectValue ?? [:]
            wrongType["userTitle"] = 5
            let mismatch = try await client.create("ActiveUsers", .object(wrongType), as: user)
            #expect(mismatch.json == ["code": 111, "error": "schema mismatch for ActiveUsers.userTitle; expected String but got Number"])

            // Inferred on first write, then enforced.
            var first = Self.device(user).objectValue ?? [:]
            first["floor"] = 2
            let created = try await client.create("ActiveUsers", .object(first), as: user)
            #expect(created.status == 201)
            let path = "/parse/classes/ActiveUsers/\(created["objectId"]?.stringValue ?? "")"
            let inferred = try await client.send(.put, path, body: ["floor": "second"], token: user.sessionToken)
            #expect(inferred.errorCode == 111)

            let secondGeo = try await client.send(.put, path, body: ["entrance": .geoPoint(1, 1)], token: user.sessionToken)
            #expect(secondGeo.json == ["code": 111, "error": "there can only be one geopoint field in a class"])

            let outOfRange = try await client.send(.put, path, body: ["userLocation": .geoPoint(91, 0)], token: user.sessionToken)
            #expect(outOfRange.errorCode == 111)
        }
    }

    @Test func unknownClassesAre119ToWriteAndEmptyToRead() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            let create = try await client.create("Messages", ["text": "hi"], as: user)
            #expect(create.status == 400)
            #expect(create.json == ["code": 119, "error": "This user is not allowed to access non-existent class: Messages"])
            let badName = try await client.create("9lives", ["text": "hi"], as: user)
            #expect(badName.errorCode == 103)
            let find = try await client.query("Messages", ["count": 1], token: user.sessionToken)
            #expect(find.json == ["results": [], "count": 0])
            let get = try await client.send(.get, "/parse/classes/Messages/abc", token: user.sessionToken)
            #expect(get.errorCode == 101)
        }
    }
}

/// HTTP methods by a name Swift Testing can iterate over.
enum HTTPRequestMethod: CaseIterable {
    case get, put, delete

    var value: HTTPRequest.Method {
        switch self {
        case .get: .get
        case .put: .put
        case .delete: .delete
        }
    }
}
