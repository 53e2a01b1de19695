import Foundation
import Testing
@testable import IntercomServer

/// Issue #14 (6): what one query may cost — list sizes, `where` size and nesting, subscriptions per socket,
/// and the time budget — each refusal a Parse error that says which limit.
@Suite struct QueryCostTests {
    private static func list(_ count: Int) -> JSONValue {
        .array((0..<count).map { .string("title-\($0)") })
    }

    private static func refusal(_ clause: JSONValue, _ limits: QueryLimits = QueryLimits()) -> ParseError? {
        do {
            _ = try QueryParser.parse(clause, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func listOperatorsAreCappedAtTheirLimit() {
        var limits = QueryLimits()
        limits.maxListItems = 500
        for op in ["$in", "$nin", "$all"] {
            #expect(Self.refusal(["userTitle": .object([op: Self.list(500)])], limits) == nil, "\(op)")
            let refused = Self.refusal(["userTitle": .object([op: Self.list(501)])], limits)
            #expect(refused?.code == ParseErrorCode.invalidQuery, "\(op)")
            #expect(refused?.message.contains("at most 500") == true, "\(op): \(String(describing: refused?.message))")
        }
        let manyClauses = JSONValue.array((0..<501).map { _ in ["userTitle": "x"] })
        #expect(Self.refusal(["$or": manyClauses], limits)?.code == ParseErrorCode.invalidQuery)
    }

    @Test func theWhereSizeIsCapped() {
        var limits = QueryLimits()
        limits.maxWhereBytes = 1024
        #expect(Self.refusal(["userTitle": .string(String(repeating: "x", count: 900))], limits) == nil)
        let refused = Self.refusal(["userTitle": .string(String(repeating: "x", count: 1100))], limits)
        #expect(refused?.code == ParseErrorCode.invalidQuery)
        #expect(refused?.message.contains("1024 bytes") == true)
    }

    @Test func nestingIsCapped() {
        var clause: JSONValue = ["userTitle": "x"]
        for _ in 0..<4 { clause = ["$or": [clause]] }
        #expect(Self.refusal(clause) == nil)
        clause = ["$and": [clause]]
        let refused = Self.refusal(clause)
        #expect(refused?.code == ParseErrorCode.invalidQuery)
        #expect(refused?.message.contains("nested too deeply") == true)
    }

    @Test func sizeIsJudgedWithoutEncoding() {
        #expect(JSONSize.fits(["a": [1, 2, "xyz"]], within: 64))
        #expect(!JSONSize.fits(Self.list(10_000), within: 64 << 10))
    }

    @Test func aFindPastItsTimeBudgetAnswers124() async throws {
        let server = try await TestServer { $0.queryLimits.timeBudgetMilliseconds = 0 }
        try await server.run { client in
            let caller = try await client.anonymousUser()
            let created = try await client.create("ActiveSessions", CallSessionTests.call(from: caller, to: "rx"), as: caller)
            #expect(created.status == 201)
            let reply = try await client.query("ActiveSessions", token: caller.sessionToken)
            #expect(reply.status == 400)
            #expect(reply["code"] == .number(Double(ParseErrorCode.timeout)))
        }
    }

    @Test func liveQuerySubscriptionsPerSocketAreCapped() async throws {
        var configuration = ServerConfiguration()
        configuration.queryLimits.maxSubscriptionsPerSocket = 2
        let hub = LiveQueryHub(configuration: configuration, logger: TestServer.logger) { _ in nil }
        let (clientId, outbox) = await hub.register()
        await hub.receive(#"{"op":"connect","applicationId":"intercom"}"#, from: clientId)
        for requestId in 1...3 {
            await hub.receive(#"{"op":"subscribe","requestId":\#(requestId),"query":{"className":"ActiveUsers","where":{}}}"#,
                              from: clientId)
        }
        await hub.unregister(clientId)
        var frames: [JSONValue] = []
        for await text in outbox { frames.append(try JSONValue.parse(text.utf8, limit: 1 << 20)) }
        #expect(frames.filter { $0["op"] == "subscribed" }.count == 2)
        let refused = frames.first { $0["op"] == "error" }
        #expect(refused?["code"] == .number(Double(ParseErrorCode.invalidQuery)))
        #expect(refused?["requestId"] == 3)
    }
}
