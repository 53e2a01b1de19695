import ParseClient
import ParseWire
import ServerTestSupport
import Testing

/// The agent's HTTP pool against a real `intercom-server`, counted at a relay: after requests at once
/// (a call's row delete, heartbeat and snapshot upload), steady traffic reuses one connection and the surplus
/// ones close after the idle timeout. The soak once found a second connection kept alive for good (the pool
/// alternated between two event loops' connections, and the heartbeat and the safety poll kept both fresh).
@Suite(.timeLimit(.minutes(1))) struct HTTPConnectionReuseTests {
    @Test func steadyRequestsReuseOneConnectionAndTheSurplusIdlesOut() async throws {
        try await RunningServer.with { server in
            let relay = try BlackHoleRelay(target: server.port)
            defer { relay.stop() }
            let idle = Duration.milliseconds(1500)
            let client = AsyncHTTPParseTransport.makeClient(idleTimeout: .milliseconds(1500))
            let transport = AsyncHTTPParseTransport(client: client)
            let base = "http://127.0.0.1:\(relay.port)"
            let health = ParseRequest(method: .get, path: "/parse/health")

            // Requests at once open connections side by side (a loaded machine may serve a burst one by one:
            // up to five bursts).
            for _ in 0..<5 where relay.open < 2 {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<6 {
                        group.addTask { try await transport.execute(health, baseURL: base, timeout: .seconds(5)).status }
                    }
                    for try await status in group { #expect(status == 200) }
                }
            }
            let burst = relay.open
            #expect(burst >= 2, "six requests at once, five times, opened \(burst) connection(s)")

            // Steady traffic, a request every fifth of the idle timeout: any connection the pool lends in turn
            // stays fresh; only the last returned one should. Up to four timeouts, for a loaded machine.
            let steady = ContinuousClock.now
            while relay.open > 1, ContinuousClock.now - steady < idle * 4 {
                #expect(try await transport.execute(health, baseURL: base, timeout: .seconds(5)).status == 200)
                try await Task.sleep(for: idle / 5)
            }
            let took = ContinuousClock.now - steady
            let open = relay.open, accepted = relay.accepted
            #expect(open == 1, "\(open) connections open after \(took) of one request at a time (\(burst) after the burst, \(accepted) accepted)")
            try await client.shutdown()
        }
    }
}
