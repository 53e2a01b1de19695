import Foundation
import IntercomServer
import Testing

/// Presence expiry: rows not re-saved for 3 heartbeats are offline, hidden, then swept.
@Suite struct SweeperTests {
    @Test func staleDevicesDisappearAfterThreeHeartbeats() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock) { $0.heartbeatSeconds = 10 }
        try await server.run { client in
            let alive = try await client.anonymousUser()
            let silent = try await client.anonymousUser()
            let aliveRow = try await client.create("ActiveUsers", ObjectTests.device(alive, title: "alive"), as: alive)
            _ = try await client.create("ActiveUsers", ObjectTests.device(silent, title: "silent"), as: silent)
            let alivePath = "/parse/classes/ActiveUsers/\(aliveRow["objectId"]?.stringValue ?? "")"
            for _ in 0..<4 {
                clock.advance(seconds: 10)
                let beat = try await client.send(.put, alivePath, body: ["userTitle": "alive"], token: alive.sessionToken)
                #expect(beat.status == 200)
            }
            // 40 s without a save: the silent device is past 3 heartbeats (30 s).
            let online = try await client.query("ActiveUsers", ["order": "userTitle"])
            #expect(online.results.compactMap { $0["userTitle"]?.stringValue } == ["alive"])

            let report = try await server.backend.sweeper.sweepOnce()
            #expect(report.staleUsers == 1)
            #expect(try await server.backend.sweeper.sweepOnce().staleUsers == 0)

            // The offline device's next heartbeat PUT gets 101, so it POSTs a new row.
            let rejoin = try await client.create("ActiveUsers", ObjectTests.device(silent, title: "silent"), as: silent)
            #expect(rejoin.status == 201)
        }
    }

    @Test func expiredSessionsAndRequestIdsAreSwept() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock) {
            $0.sessionLengthSeconds = 60
            $0.idempotencyTTLSeconds = 30
        }
        try await server.run { client in
            _ = try await client.send(.post, "/parse/users", body: ["authData": ["anonymous": ["id": "a"]]],
                                      headers: ["X-Parse-Request-Id": "req-1"])
            clock.advance(seconds: 31)
            var report = try await server.backend.sweeper.sweepOnce()
            #expect(report.expiredRequestIds == 1)
            #expect(report.expiredSessions == 0)
            clock.advance(seconds: 30)
            report = try await server.backend.sweeper.sweepOnce()
            #expect(report.expiredSessions == 1)
        }
    }
}
