import Foundation
import Glibc
import Logging
import SIPCore
import Synchronization
import Testing
@testable import SIPTransport

/// The agent's TCP listener (transport TCP, RFC 3261 §18.2, §18.3) on the real `sip` thread: phones on the
/// loopback connect, send framed requests, and read the answers on the same connection.
@Suite("SIP transport: TCP listener")
struct SIPTransportTCPListenerTests {
    /// An agent over TCP whose registrar is `registrarPort` (nothing listening there is fine: the registration
    /// retries with backoff while the listener serves).
    private static func agent(registrarPort: Int, log: CallEventLog, limit: Int = 32,
                              idle: Duration = .seconds(180)) -> SIPUserAgent {
        var settings = SIPUserAgentSettings(
            registrarHost: "127.0.0.1", registrarPort: registrarPort, user: "gate", authUser: "gate", password: nil,
            transport: .tcp, localPort: 0, displayName: nil, keepAlive: .seconds(25), registerExpiry: .seconds(60))
        settings.callTimers = SIPTimerValues(t1: .milliseconds(50), t2: .milliseconds(200), t4: .milliseconds(200))
        settings.maxInboundConnections = limit
        settings.inboundIdleTimeout = idle
        return SIPUserAgent(settings: settings, logger: Logger(label: "test"), onState: { _ in },
                            onCall: { event in log.events.withLock { $0.append(event) } })
    }

    /// Waits (on the script's thread) until the agent listens on TCP.
    private static func waitForListener(_ agent: SIPUserAgent) throws -> Int {
        let deadline = ContinuousClock.now + .seconds(5)
        while agent.streamPort == 0 {
            guard ContinuousClock.now < deadline else { throw TCPPeer.Failure(description: "no TCP listener within 5 s") }
            usleep(2_000)
        }
        return agent.streamPort
    }

    @Test("OPTIONS over TCP: 200 on the same connection; two in one segment; one split over many segments")
    func optionsOverTCP() async throws {
        let agent = Self.agent(registrarPort: 9, log: CallEventLog())
        agent.start()
        try await TCPPeer.onThread {
            let port = try Self.waitForListener(agent)
            try #require(port == agent.localPort)
            let peer = try TCPPeer(agentPort: port)
            try peer.send(peer.request("OPTIONS", cseq: 1, branch: "o1"))
            let ok = try peer.expect("200 to OPTIONS", isResponse(200, .options))
            try #require(try ok.topVia().host == "127.0.0.1")

            try peer.send(peer.request("OPTIONS", cseq: 2, branch: "o2") + peer.request("OPTIONS", cseq: 3, branch: "o3"))
            for cseq: UInt32 in [2, 3] {
                try peer.expect("200 to OPTIONS \(cseq)") { $0.statusCode == 200 && (try? $0.cseq().number) == cseq }
            }

            let split = Array(peer.request("OPTIONS", cseq: 4, branch: "o4").utf8)
            for start in stride(from: 0, to: split.count, by: 37) {
                try peer.send(Array(split[start..<min(start + 37, split.count)]))
                usleep(3_000)
            }
            try peer.expect("200 to the split OPTIONS") { $0.statusCode == 200 && (try? $0.cseq().number) == 4 }
        }
        #expect(agent.connections.accepted == 1)
        #expect(agent.connections.unframeable == 0)
        await agent.stop()
    }

    @Test("INVITE over TCP: 100, 180, 200 (Contact ;transport=tcp) on the connection, ACK confirms, BYE 200 ends")
    func callOverTCP() async throws {
        let log = CallEventLog()
        let agent = Self.agent(registrarPort: 9, log: log)
        agent.start()
        try await TCPPeer.onThread {
            let peer = try TCPPeer(agentPort: try Self.waitForListener(agent))
            try peer.send(peer.request("INVITE", cseq: 1, branch: "i1", body: ScriptedCaller.offer))
            try peer.expect("100 Trying", isResponse(100, .invite))
            let deadline = ContinuousClock.now + .seconds(5)
            while !log.all.contains(where: { if case .invited = $0 { true } else { false } }) {
                guard ContinuousClock.now < deadline else { throw TCPPeer.Failure(description: "no .invited") }
                usleep(2_000)
            }
            agent.ring(callID: peer.callID)
            let ringing = try peer.expect("180 Ringing", isResponse(180, .invite))
            let tag = try #require(try ringing.to().tag)
            agent.answer(callID: peer.callID, sdp: ScriptedCaller.answer)
            let ok = try peer.expect("200 OK", isResponse(200, .invite))
            try #require(ok.values(SIPHeaderName.contact) == ["<sip:gate@127.0.0.1:\(agent.streamPort);transport=tcp>"])
            try peer.send(peer.request("ACK", cseq: 1, branch: "a1", toTag: tag))
            let confirmed = ContinuousClock.now + .seconds(5)
            while !log.contains(.confirmed(callID: peer.callID)) {
                guard ContinuousClock.now < confirmed else { throw TCPPeer.Failure(description: "no .confirmed") }
                usleep(2_000)
            }
            // Reliable transport: no 2xx retransmission (§13.3.1.4 retransmits over UDP only).
            try #require(throws: TCPPeer.Failure.self) {
                try peer.expect("a retransmitted 200", within: .milliseconds(300), isResponse(200, .invite))
            }
            try peer.send(peer.request("BYE", cseq: 2, branch: "b1", toTag: tag))
            try peer.expect("200 to BYE", isResponse(200, .bye))
            let ended = ContinuousClock.now + .seconds(5)
            while !log.contains(.ended(callID: peer.callID, reason: .bye)) {
                guard ContinuousClock.now < ended else { throw TCPPeer.Failure(description: "no .ended(bye)") }
                usleep(2_000)
            }
        }
        await agent.stop()
    }

    @Test("garbage, an over-long header and connections beyond the limit are closed and counted; UDP still answers")
    func abuseIsBounded() async throws {
        let agent = Self.agent(registrarPort: 9, log: CallEventLog(), limit: 2)
        agent.start()
        try await TCPPeer.onThread {
            let port = try Self.waitForListener(agent)
            let garbage = try TCPPeer(agentPort: port)
            try garbage.send(Array("\u{1}\u{2}GET / HTTP/1.0 what\r\n\r\n".utf8))
            try #require(try garbage.closedByAgent())

            let longHeader = try TCPPeer(agentPort: port)
            try longHeader.send(longHeader.request("OPTIONS", cseq: 1, branch: "l1",
                                                  extra: ["X-Long: " + String(repeating: "a", count: 10_000)]))
            try #require(try longHeader.closedByAgent())

            let first = try TCPPeer(agentPort: port)
            try first.send(first.request("OPTIONS", cseq: 1, branch: "f1"))
            try first.expect("200 on the first", isResponse(200, .options))
            let second = try TCPPeer(agentPort: port)
            try second.send(second.request("OPTIONS", cseq: 1, branch: "s1"))
            try second.expect("200 on the second", isResponse(200, .options))
            let third = try TCPPeer(agentPort: port)
            try #require(try third.closedByAgent())
            // The open ones still work.
            try first.send(first.request("OPTIONS", cseq: 2, branch: "f2"))
            try first.expect("200 on the first again", isResponse(200, .options))

            let udp = try SIPDatagramSocket(family: AF_INET, port: 0)
            let options = [
                "OPTIONS sip:gate@127.0.0.1 SIP/2.0", "Via: SIP/2.0/UDP 127.0.0.1:\(udp.local.port);branch=z9hG4bKudp1",
                "Max-Forwards: 70", "From: <sip:alice@127.0.0.1>;tag=u1", "To: <sip:gate@127.0.0.1>",
                "Call-ID: udp-1@127.0.0.1", "CSeq: 1 OPTIONS", "Content-Length: 0",
            ].joined(separator: "\r\n") + "\r\n\r\n"
            try udp.send(Array(options.utf8), to: try SIPSocketAddress.resolve(host: "127.0.0.1", port: agent.localPort, datagram: true))
            let deadline = ContinuousClock.now + .seconds(5)
            while true {
                if case let (bytes, _)? = try udp.receive(), try SIPMessage(datagram: bytes).statusCode == 200 { break }
                guard ContinuousClock.now < deadline else { throw TCPPeer.Failure(description: "no 200 over UDP") }
                usleep(2_000)
            }
        }
        #expect(agent.connections.unframeable == 2)
        #expect(agent.connections.refused == 1)
        #expect(agent.connections.accepted == 4)
        await agent.stop()
    }

    @Test("registering over TCP: Contact names the listening port with ;transport=tcp")
    func registerContact() async throws {
        let registrar = try TCPRegistrar()
        let agent = Self.agent(registrarPort: Int(registrar.port), log: CallEventLog())
        agent.start()
        try await TCPPeer.onThread { try registrar.answerOneRegister() }
        let register = try #require(registrar.registers.first)
        #expect(agent.streamPort != 0)
        #expect(register.values(SIPHeaderName.contact) == ["<sip:gate@127.0.0.1:\(agent.streamPort);transport=tcp>"])
        #expect(try register.topVia().transport == "TCP")
        await agent.stop()
    }

    @Test("a silent connection is closed after the idle timeout and counted; one with a call on it is kept")
    func idleConnectionClosed() async throws {
        let log = CallEventLog()
        let agent = Self.agent(registrarPort: 9, log: log, idle: .milliseconds(300))
        agent.start()
        try await TCPPeer.onThread {
            let port = try Self.waitForListener(agent)
            let busy = try TCPPeer(agentPort: port)
            // An INVITE left unanswered: its transaction and call keep the connection (our answer goes there).
            try busy.send(busy.request("INVITE", cseq: 1, branch: "i1", body: ScriptedCaller.offer))
            try busy.expect("100 Trying", isResponse(100, .invite))
            let silent = try TCPPeer(agentPort: port)
            try #require(try silent.closedByAgent(within: .seconds(3)))
            agent.ring(callID: busy.callID)
            try busy.expect("180 Ringing on the connection kept open", isResponse(180, .invite))
        }
        #expect(agent.connections.idle == 1)
        await agent.stop()
    }
}
