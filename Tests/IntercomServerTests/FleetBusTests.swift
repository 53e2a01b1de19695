import Foundation
@testable import IntercomServer
import IntercomTestSupport
import ParseWire
import Testing

/// The fleet's bus on PostgreSQL (INTERCOM_TEST_DATABASE_URL, set by `Tests/postgres/run.sh`; on SQLite there is
/// no bus and these are skipped, saying why). Two instances side by side are the postgres stage's fleet test.
@Suite(.enabled(if: TestPostgres.baseURL != nil, "needs PostgreSQL: run by scripts/test.sh postgres"))
struct FleetBusTests {
    /// Events committed while the listener was away are lost, so its return closes every LiveQuery socket:
    /// clients reconnect, subscribe again and poll.
    @Test func aLostListenerClosesEveryLiveQuerySocketWhenItIsBack() async throws {
        let server = try await TestServer()
        let bus = try #require(server.backend.changeBus)
        // `run` starts once the bus listens.
        try await server.run(.live) { _ in
            let hub = server.backend.liveQuery
            let (clientId, outbox) = await hub.register()
            await hub.receive(#"{"op":"connect","applicationId":"intercom"}"#, from: clientId)
            // Only this test server's listener: its channels name this test's schema (its last query is the
            // LISTEN of the signaling channel).
            let schema = try #require(server.backend.database.postgresSettings?.schema)
            let killed = try await server.backend.database.write { db in
                try db.value(Int.self, """
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE query LIKE 'LISTEN%' AND query LIKE ?
                    """, ["%" + schema + "%"])
            }
            try #require(killed == 1)
            // The outbox ends when the hub closes the socket; a watchdog ends the wait if it never does.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(15))
                await hub.unregister(clientId)
            }
            var frames: [String] = []
            for await text in outbox { frames.append(text) }
            watchdog.cancel()
            let last = try JSONValue.parse(Array((frames.last ?? "{}").utf8), limit: 1 << 16)
            #expect(last["op"] == "error")
            #expect(last["reconnect"] == .bool(true))
            #expect(last["code"] == .number(Double(ParseErrorCode.connectionFailed)))
            try await TestServer.waitFor("the bus to listen again") { bus.currentState == .listening }
        }
    }
}
