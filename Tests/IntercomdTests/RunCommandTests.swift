import Foundation
import IntercomPlatform
import IntercomTestSupport
import Testing

@Suite("intercomd run: systemd notify protocol and refusing bad configs", .serialized)
struct RunCommandTests {
    @Test("READY=1 with a status line, WATCHDOG=1 at half the interval, STOPPING=1 on SIGTERM, exit 0 within 5 s")
    func notifyLifecycle() async throws {
        let directory = try TemporaryDirectory()
        let config = try writeOfflineAgentConfig(in: directory)
        let socket = try FakeNotifySocket(.abstract)
        let agent = try IntercomdProcess.start(["run", "--config", config], environment: socket.environment(["WATCHDOG_USEC": "400000"]))

        let ready = try await socket.receiveAsync(timeout: .seconds(10))
        // No backend listens on port 1: the agent is ready, and says it is offline.
        #expect(ready == "READY=1\nSTATUS=offline, Gate 3 (backend unreachable)")
        var watchdogs = 0
        let deadline = ContinuousClock.now + .seconds(3)
        while watchdogs < 2, ContinuousClock.now < deadline {
            if let message = try await socket.receiveAsync(timeout: .seconds(1)), message.contains("WATCHDOG=1") { watchdogs += 1 }
        }
        #expect(watchdogs == 2, "expected WATCHDOG=1 every 200 ms")

        let stopAt = ContinuousClock.now
        agent.signal(SIGTERM)
        var stopping = false
        while let message = try await socket.receiveAsync(timeout: .seconds(5)) {
            if message.hasPrefix("STOPPING=1") {
                stopping = true
                break
            }
        }
        #expect(stopping)
        let output = try await agent.waitAsync(timeout: .seconds(5))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(ContinuousClock.now - stopAt < .seconds(5))
        // The device identity was created in the configured state directory.
        #expect(directory.contents(of: "state/identity.json") != nil)
    }

    @Test("the userID-bearing identity survives a restart unchanged")
    func identityStable() async throws {
        let directory = try TemporaryDirectory()
        let config = try writeOfflineAgentConfig(in: directory)
        for _ in 0..<2 {
            let socket = try FakeNotifySocket(.abstract)
            let agent = try IntercomdProcess.start(["run", "--config", config], environment: socket.environment())
            #expect(try await socket.receiveAsync(timeout: .seconds(10))?.hasPrefix("READY=1") == true)
            agent.signal(SIGTERM)
            #expect(try await agent.waitAsync(timeout: .seconds(5)).status == 0)
        }
        let first = directory.contents(of: "state/identity.json")
        #expect(first != nil)
        let store = StateStore(directory: directory.path("state"))
        let (identity, recovered, _) = try store.loadOrCreateIdentity()
        #expect(recovered == nil)
        #expect(Array(first ?? []) == directory.contents(of: "state/identity.json"))
        #expect(!identity.installationID.isEmpty)
    }

    @Test("an invalid config never starts: exit 1, problems printed, no READY")
    func invalidConfigDoesNotStart() async throws {
        let directory = try TemporaryDirectory()
        let config = try writeOfflineAgentConfig(in: directory, extra: "[video]\nfps = 0\n")
        let socket = try FakeNotifySocket(.abstract)
        let output = try await IntercomdProcess.runAsync(["run", "--config", config], environment: socket.environment())
        #expect(output.status == 1)
        #expect(output.stderr.contains("video.fps: must be between 1 and 60, got 0"))
        #expect(output.stderr.contains("not starting"))
        #expect(try await socket.receiveAsync(timeout: .milliseconds(200)) == nil)
        #expect(directory.contents(of: "state/identity.json") == nil)
    }

    @Test("run --keys without [gpio] buttons: exit 1 saying there is nothing to simulate, no READY")
    func keysWithoutButtons() async throws {
        let directory = try TemporaryDirectory()
        let config = try writeOfflineAgentConfig(in: directory)
        let socket = try FakeNotifySocket(.abstract)
        let output = try await IntercomdProcess.runAsync(["run", "--keys", "--config", config], environment: socket.environment())
        #expect(output.status == 1)
        #expect(output.stderr.contains("--keys simulates the [gpio] buttons, and the configuration wires none"))
        #expect(try await socket.receiveAsync(timeout: .milliseconds(200)) == nil)
    }

    @Test("a corrupt identity file is reported and replaced; the agent still becomes ready")
    func corruptState() async throws {
        let directory = try TemporaryDirectory()
        let config = try writeOfflineAgentConfig(in: directory)
        try Directories.createIfMissing(directory.path("state"), permissions: 0o700)
        try directory.write("{\"installationID\": \"trunc", to: "state/identity.json")
        let socket = try FakeNotifySocket(.abstract)
        let agent = try IntercomdProcess.start(["run", "--config", config], environment: socket.environment())
        #expect(try await socket.receiveAsync(timeout: .seconds(10))?.hasPrefix("READY=1") == true)
        agent.signal(SIGTERM)
        let output = try await agent.waitAsync(timeout: .seconds(5))
        #expect(output.status == 0)
        #expect(output.stderr.contains("state recovered"))
        #expect(directory.entries().isEmpty == false)
    }
}
