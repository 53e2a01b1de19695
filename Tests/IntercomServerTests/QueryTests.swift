import Foundation
import IntercomServer
import Testing

/// parse-wire.md §5: where operators, limit/skip/order/keys/count and query errors. Rows are calls from one
/// caller (ActiveSessions are visible to their caller), each with a `score`.
@Suite struct QueryTests {
    /// Creates calls to receivers r0…r(n-1) with score = i % 5 and a title on even rows only.
    static func seed(_ client: ParseTestClient, count: Int) async throws -> TestUser {
        let caller = try await client.anonymousUser()
        for index in 0..<count {
            var fields: [String: JSONValue] = [
                "callerID": .string(caller.objectId), "receiverID": .string("r\(index)"),
                "score": .number(Double(index % 5)), "isVideo": .bool(index % 2 == 0),
            ]
            if index % 2 == 0 { fields["callerTitle"] = .string("t\(index)") }
            let reply = try await client.create("ActiveSessions", .object(fields), as: caller)
            guard reply.status == 201 else { throw TestFailure("seed failed: \(reply.json)") }
        }
        return caller
    }

    static func receivers(_ reply: ParseReply) -> [String] {
        reply.results.compactMap { $0["receiverID"]?.stringValue }
    }

    @Test func whereOperators() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await Self.seed(client, count: 10)
            func find(_ clause: JSONValue) async throws -> Set<String> {
                let reply = try await client.query("ActiveSessions", ["where": clause], token: caller.sessionToken)
                #expect(reply.status == 200, "\(clause): \(reply.json)")
                return Set(Self.receivers(reply))
            }
            #expect(try await find(["receiverID": "r3"]) == ["r3"])
            #expect(try await find(["score": 4]) == ["r4", "r9"])
            #expect(try await find(["$or": [["receiverID": "r1"], ["score": 0]]]) == ["r0", "r1", "r5"])
            #expect(try await find(["receiverID": ["$in": ["r2", "r7", "zz"]]]) == ["r2", "r7"])
            #expect(try await find(["score": ["$nin": [0, 1, 2, 3]]]) == ["r4", "r9"])
            #expect(try await find(["score": ["$ne": 0], "isVideo": true]) == ["r2", "r4", "r6", "r8"])
            #expect(try await find(["callerTitle": ["$exists": false]]) == ["r1", "r3", "r5", "r7", "r9"])
            #expect(try await find(["callerTitle": ["$exists": true], "score": ["$gte": 3]]) == ["r8", "r4"])
            #expect(try await find(["score": ["$gt": 1, "$lt": 3]]) == ["r2", "r7"])
            #expect(try await find(["score": ["$lte": 0]]) == ["r0", "r5"])
            #expect(try await find(["$and": [["score": ["$gte": 1]], ["score": ["$lte": 1]]]]) == ["r1", "r6"])
            #expect(try await find(["receiverID": ["$eq": "r5"]]) == ["r5"])
            #expect(try await find(["receiverID": ["$in": []]]) == [])
        }
    }

    @Test func dateComparisonsOnCreatedAt() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock)
        try await server.run { client in
            let caller = try await client.anonymousUser()
            for index in 0..<3 {
                _ = try await client.create("ActiveSessions", ["callerID": .string(caller.objectId),
                                                               "receiverID": .string("r\(index)")], as: caller)
                clock.advance(seconds: 1)
            }
            let cutoff = ParseTimestamp.format(milliseconds: Int64((clock.now.timeIntervalSince1970 - 2) * 1000))
            let reply = try await client.query(
                "ActiveSessions", ["where": ["createdAt": ["$gte": ["__type": "Date", "iso": .string(cutoff)]]]],
                token: caller.sessionToken)
            #expect(Self.receivers(reply) == ["r1", "r2"])
        }
    }

    @Test func limitDefaultsTo100AndCountIgnoresLimitAndSkip() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await Self.seed(client, count: 105)
            let all = try await client.query("ActiveSessions", ["count": 1], token: caller.sessionToken)
            #expect(all.results.count == 100)
            #expect(all["count"] == 105)
            let limited = try await client.query("ActiveSessions", ["limit": 3, "skip": 100, "count": 1],
                                                 token: caller.sessionToken)
            #expect(Self.receivers(limited) == ["r100", "r101", "r102"])
            #expect(limited["count"] == 105)
            let zero = try await client.query("ActiveSessions", ["limit": 0, "count": 1, "where": ["score": 1]],
                                              token: caller.sessionToken)
            #expect(zero.json == ["results": [], "count": 21])
            let large = try await client.query("ActiveSessions", ["limit": 1000], token: caller.sessionToken)
            #expect(large.results.count == 105)
        }
    }

    @Test func maxLimitSilentlyCapsTheLimit() async throws {
        let server = try await TestServer { $0.maxLimit = 4 }
        try await server.run { client in
            let caller = try await Self.seed(client, count: 6)
            let reply = try await client.query("ActiveSessions", ["limit": 50], token: caller.sessionToken)
            #expect(reply.results.count == 4)
        }
    }

    @Test func orderByManyKeysWithDescendingPrefix() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await Self.seed(client, count: 10)
            let reply = try await client.query("ActiveSessions", ["order": "-score,receiverID"], token: caller.sessionToken)
            #expect(Self.receivers(reply) == ["r4", "r9", "r3", "r8", "r2", "r7", "r1", "r6", "r0", "r5"])
            let byCreation = try await client.query("ActiveSessions", ["order": "-createdAt", "limit": 2],
                                                    token: caller.sessionToken)
            // Created in the same millisecond: ties keep creation order.
            #expect(byCreation.results.count == 2)
            let badKey = try await client.query("ActiveSessions", ["order": "sco-re"], token: caller.sessionToken)
            #expect(badKey.errorCode == 105)
        }
    }

    @Test func keysKeepsOnlyTheNamedFieldsPlusTheBuiltIns() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await Self.seed(client, count: 2)
            let reply = try await client.query("ActiveSessions", ["keys": "receiverID,score"], token: caller.sessionToken)
            for result in reply.results {
                #expect(Set(result.objectValue?.keys ?? [:].keys) == ["objectId", "createdAt", "updatedAt", "receiverID", "score"])
            }
            let excluded = try await client.query("ActiveSessions", ["excludeKeys": "publisherToken,subscriberToken"],
                                                  token: caller.sessionToken)
            #expect(excluded.results.first?["publisherToken"] == nil)
            #expect(excluded.results.first?["sessionID"] != nil)
        }
    }

    @Test func postWithMethodGetRunsTheQuery() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await Self.seed(client, count: 4)
            let reply = try await client.send(
                .post, "/parse/classes/ActiveSessions",
                body: ["_method": "GET", "where": ["score": ["$in": [1, 3]]], "order": "receiverID", "count": true],
                token: caller.sessionToken)
            #expect(Self.receivers(reply) == ["r1", "r3"])
            #expect(reply["count"] == 2)
        }
    }

    @Test func queryErrors() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            let cases: [([String: JSONValue], Int, String?)] = [
                (["where": ["score": ["$foo": 1]]], 107, "bad constraint: $foo"),
                (["where": ["$or": ["receiverID": "x"]]], 102, "Bad $or format - use an array value."),
                (["where": ["bad-key": 1]], 105, "Invalid key name: bad-key"),
                (["where": ["ACL": 1]], 102, "Cannot query on ACL."),
                (["where": .string("{not json")], 107, nil),
                (["where": [1, 2]], 102, nil),
                (["frobnicate": 1], 102, "Invalid parameter for query: frobnicate"),
                (["limit": -1], 102, nil),
                (["where": ["score": ["$in": 5]]], 107, nil),
                (["where": ["userLocation": ["$within": ["$box": [JSONValue.geoPoint(0, 0)]]]]], 107, nil),
                (["where": ["userLocation": ["$nearSphere": JSONValue.geoPoint(100, 0)]]], 107, nil),
                (["where": ["userLocation": ["$geoWithin": ["$centerSphere": [[0, 0], -1]]]]], 107, nil),
            ]
            for (parameters, code, message) in cases {
                let reply = try await client.query("ActiveUsers", parameters, token: user.sessionToken)
                #expect(reply.status == 400, "\(parameters)")
                #expect(reply.errorCode == code, "\(parameters): \(reply.json)")
                if let message { #expect(reply["error"] == .string(message)) }
            }
        }
    }
}
