import Foundation
import Glibc
import IntercomTestSupport
import Testing

/// `intercomd status` against a real `intercomd run`: what the agent's /health says, in lines and in the
/// exit status; and nothing running is exit 3, not a hang.
@Suite("intercomd status", .serialized)
struct StatusCommandTests {
    @Test("nothing answers at [metrics] listen: exit 3 saying the agent is not running")
    func notRunning() async throws {
        let directory = try TemporaryDirectory()
        let port = try unusedTCPPort()
        let config = try writeOfflineAgentConfig(in: directory, extra: "[metrics]\nlisten = \"127.0.0.1:\(port)\"\n")
        let output = try await IntercomdProcess.runAsync(["status", "--config", config], timeout: .seconds(10))
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        #expect(output.stderr.contains("intercomd: not running (nothing answers at http://127.0.0.1:\(port)/health"), "\(output.stderr)")
    }

    @Test("an offline agent whose registrar does not answer: exit 4, backend offline and SIP unreachable; --json is /health")
    func offlineAgent() async throws {
        let directory = try TemporaryDirectory()
        let port = try unusedTCPPort()
        let config = try writeOfflineAgentConfig(in: directory, extra: """
            [metrics]
            listen = "0.0.0.0:\(port)"
            [sip]
            registrar = "127.0.0.1:1"
            user = "gate"
            """)
        let socket = try FakeNotifySocket(.abstract)
        let agent = try IntercomdProcess.start(["run", "--config", config], environment: socket.environment())
        defer { agent.signal(SIGKILL) }
        #expect(try await socket.receiveAsync(timeout: .seconds(10))?.hasPrefix("READY=1") == true)

        var output = try await IntercomdProcess.runAsync(["status", "--config", config])
        let deadline = ContinuousClock.now + .seconds(10)
        while !output.stdout.contains("SIP:      unreachable"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            output = try await IntercomdProcess.runAsync(["status", "--config", config])
        }
        #expect(output.status == 4, "\(output.stdout)\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("intercomd at http://127.0.0.1:\(port): degraded — offline, Gate 3") == true, "\(lines)")
        #expect(lines.contains("  backend:  not registered (offline), LiveQuery not connected"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  SIP:      unreachable: ") }, "\(lines)")
        #expect(lines.contains("  call:     idle; 0 received since start"), "\(lines)")
        #expect(lines.contains("  warnings: sip_unregistered"), "\(lines)")

        let json = try await IntercomdProcess.runAsync(["status", "--json", "--config", config])
        #expect(json.status == 4)
        let health = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(health?["sip"] as? String == "unreachable", "\(json.stdout)")
        #expect(health?["registered"] as? Bool == false)
    }

    @Test("[metrics] enabled = false: exit 2, there is no /health to ask")
    func metricsOff() async throws {
        let directory = try TemporaryDirectory()
        let config = try writeOfflineAgentConfig(in: directory, extra: "[metrics]\nenabled = false\n")
        let output = try await IntercomdProcess.runAsync(["status", "--config", config])
        #expect(output.status == 2)
        #expect(output.stderr.contains("[metrics] enabled = false"), "\(output.stderr)")
    }
}

/// A loopback TCP port nobody listens on right now (bound to port 0, read back, closed).
private func unusedTCPPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    return Int(UInt16(bigEndian: address.sin_port))
}
