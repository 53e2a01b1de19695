import Foundation
import Testing
@testable import IntercomServer

/// Issue #14 (2): LiveQuery stops delivering once the session it runs on is logged out or expires.
@Suite struct SessionRevalidationTests {
    /// A hub client connected (or subscribed) with `token`; returns its id and outbox.
    private static func subscribe(_ backend: IntercomBackend, token: String, onSocket: Bool)
        async -> (String, AsyncStream<String>)
    {
        let hub = backend.liveQuery
        let (clientId, outbox) = await hub.register()
        let connectToken = onSocket ? #","sessionToken":"\#(token)""# : ""
        await hub.receive(#"{"op":"connect","applicationId":"intercom"\#(connectToken)}"#, from: clientId)
        let subscribeToken = onSocket ? "" : #","sessionToken":"\#(token)""#
        await hub.receive(#"{"op":"subscribe","requestId":5\#(subscribeToken),"query":{"className":"ActiveSessions","where":{}}}"#,
                          from: clientId)
        return (clientId, outbox)
    }

    private static func frames(_ outbox: AsyncStream<String>) async throws -> [JSONValue] {
        var frames: [JSONValue] = []
        for await text in outbox { frames.append(try JSONValue.parse(text.utf8, limit: 1 << 20)) }
        return frames
    }

    @Test func logoutClosesASocketConnectedWithTheSession() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            let (clientId, outbox) = await Self.subscribe(server.backend, token: user.sessionToken, onSocket: true)
            #expect(await server.backend.sessionRevalidator.revalidate() == 0)
            let logout = try await client.send(.post, "/parse/logout", token: user.sessionToken)
            #expect(logout.status == 200)
            #expect(await server.backend.sessionRevalidator.revalidate() == 1)
            // The hub finished the outbox: the socket closes after the error frame.
            let frames = try await Self.frames(outbox)
            #expect(frames.last?["op"] == "error")
            #expect(frames.last?["code"] == .number(209))
            await server.backend.liveQuery.unregister(clientId)
        }
    }

    @Test func anExpiredSessionEndsASubscriptionMadeWithIt() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock) { $0.sessionLengthSeconds = 60 }
        try await server.run { client in
            let user = try await client.anonymousUser()
            let (clientId, outbox) = await Self.subscribe(server.backend, token: user.sessionToken, onSocket: false)
            #expect(await server.backend.sessionRevalidator.revalidate() == 0)
            clock.advance(seconds: 61)
            #expect(await server.backend.sessionRevalidator.revalidate() == 1)
            #expect(await server.backend.liveQuery.sessionIdsInUse().isEmpty)
            await server.backend.liveQuery.unregister(clientId)
            let frames = try await Self.frames(outbox)
            let ended = try #require(frames.first { $0["op"] == "error" })
            #expect(ended["code"] == .number(209))
            #expect(ended["requestId"] == 5)
        }
    }
}
