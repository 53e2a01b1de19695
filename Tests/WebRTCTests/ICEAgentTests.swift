import Testing
import WebRTC

/// Two real libnice agents on 127.0.0.1, each on its own GLib thread. Every wait has a deadline that
/// fails the test; nothing sleeps to synchronise.
@Suite("ICEAgentTests: libnice agents on loopback", .serialized)
struct ICEAgentTests {
    @Test func agentsOnLoopbackConnectWithTrickledCandidates() async throws {
        let pair = try await ICELoopbackPair()
        try await pair.connect(within: .seconds(5))
        for log in [pair.controllingLog, pair.controlledLog] {
            let events = log.elements
            #expect(!events.localCandidates.isEmpty)
            for line in events.localCandidates {
                #expect(line.hasPrefix("candidate:"))
                #expect(line.contains(" 127.0.0.1 "))
                #expect(line.contains("typ host"))
            }
            #expect(events.states.first == .checking)
            let pair = try #require(events.selectedPairs.last)
            #expect(pair.local.contains("127.0.0.1") && pair.remote.contains("127.0.0.1"))
        }
        #expect(pair.trickleErrors.withLock { $0 }.isEmpty)
        // Each side selected the same two transport addresses, seen from opposite ends.
        let a = try #require(pair.controllingLog.elements.selectedPairs.last)
        let b = try #require(pair.controlledLog.elements.selectedPairs.last)
        #expect(Self.address(of: a.local) == Self.address(of: b.remote))
        #expect(Self.address(of: a.remote) == Self.address(of: b.local))
        await pair.close()
    }

    @Test func datagramsFlowBothWaysIntact() async throws {
        let pair = try await ICELoopbackPair()
        try await pair.connect()
        try await Self.exchange(200, of: 1200, over: pair, tag: 0)
        await pair.close()
    }

    @Test func malformedCandidatesGiveTypedErrors() async throws {
        let agent = try await ICEAgent(controlling: true, localAddresses: ["127.0.0.1"])
        let malformed: [(line: String, problem: String)] = [
            ("", "not a candidate attribute"),
            ("candidate:", "not a candidate attribute"),
            ("a=ice-ufrag:abcd", "fewer than 8 fields"),
            ("candidate:garbage", "fewer than 8 fields"),
            ("candidate:1 1 UDP 2013266431 127.0.0.1 5000 typ", "fewer than 8 fields"),
            ("candidate:f* 1 UDP 2013266431 127.0.0.1 5000 typ host", "foundation"),
            ("candidate:1 x UDP 2013266431 127.0.0.1 5000 typ host", "component-id"),
            // libnice alone would accept this one with priority 0.
            ("candidate:1 1 UDP notanumber 127.0.0.1 5000 typ host", "priority"),
            ("candidate:1 1 UDP 99999999999 127.0.0.1 5000 typ host", "priority"),
            ("candidate:1 1 UDP 2013266431 127.0.0.1 70000 typ host", "port"),
            ("candidate:1 1 UDP 2013266431 127.0.0.1 5000 type host", "typ"),
            ("candidate:1 1 UDP 2013266431 127.0.0.1 5000 typ hosted", "cand-type"),
            ("candidate:1 1 SCTP 2013266431 127.0.0.1 5000 typ host", "nice_agent_parse_remote_candidate_sdp"),
            ("candidate:1 1 UDP 2013266431 not-an-address 5000 typ host", "nice_agent_parse_remote_candidate_sdp"),
            // mDNS host names (browsers hide local IPs this way): libnice 0.1.21 cannot resolve them.
            (
                "candidate:1 1 UDP 2013266431 0b1c6a4e-5f0e-4e3c-9a0e-5a2d1f0c9b7d.local 5000 typ host",
                "nice_agent_parse_remote_candidate_sdp"
            ),
        ]
        for (line, problem) in malformed {
            await #expect(throws: ICEError.malformedCandidate(line: line, problem: problem), "\(line)") {
                try await agent.addRemoteCandidate(line)
            }
        }
        let rtcp = "candidate:1 2 UDP 2013266430 127.0.0.1 5001 typ host"
        await #expect(throws: ICEError.unsupportedComponent(line: rtcp, componentID: 2)) {
            try await agent.addRemoteCandidate(rtcp)
        }
        // All three spellings of a well-formed candidate are accepted.
        try await agent.addRemoteCandidate("candidate:1 1 UDP 2013266431 127.0.0.1 5000 typ host")
        try await agent.addRemoteCandidate("a=candidate:2 1 UDP 2013266431 127.0.0.1 5002 typ host")
        try await agent.addRemoteCandidate("3 1 udp 1677729535 127.0.0.1 5004 typ srflx raddr 0.0.0.0 rport 0")
        await agent.close()
        await #expect(throws: ICEError.closed) {
            try await agent.addRemoteCandidate("candidate:1 1 UDP 2013266431 127.0.0.1 5000 typ host")
        }
    }

    @Test func sendBeforeAPairIsSelectedFailsWithTheCall() async throws {
        let agent = try await ICEAgent(controlling: true, localAddresses: ["127.0.0.1"])
        await #expect(throws: ICEError.sendFailed(call: "nice_agent_send", length: 3)) {
            try await agent.send([1, 2, 3])
        }
        await agent.close()
    }

    @Test func closeWhileCheckingNeitherHangsNorCrashesAndIsIdempotent() async throws {
        let agent = try await ICEAgent(controlling: true, localAddresses: ["127.0.0.1"])
        let log = StreamRecorder<ICEEvent>()
        let pump = log.record(agent.events)
        try await agent.setRemoteCredentials(ufrag: "peer", pwd: "peerpasswordpeerpassword")
        try await agent.startGathering()
        try await log.wait("gathering done") { $0.gatheringDone }
        // Nobody answers on this port: the pair stays in progress, so the agent stays checking.
        try await agent.addRemoteCandidate("candidate:1 1 UDP 2013266431 127.0.0.1 9 typ host")
        try await log.wait("checking") { $0.states.contains(.checking) }
        try await withTimeout(.seconds(6), "close() while checking") { await agent.close() }
        try await withTimeout(.seconds(1), "second close()") { await agent.close() }
        await pump.value
        #expect(log.finished)
        #expect(log.elements.states.last == .closed)
        #expect(log.elements.states.allSatisfy { !$0.isConnected })
        await #expect(throws: ICEError.closed) { try await agent.startGathering() }
        await #expect(throws: ICEError.closed) { try await agent.send([0]) }
        await #expect(throws: ICEError.closed) { try await agent.restart() }
    }

    @Test func concurrentClosesAndDroppingWithoutCloseAreSafe() async throws {
        let agent = try await ICEAgent(controlling: false, localAddresses: ["127.0.0.1"])
        try await agent.startGathering()
        try await withTimeout(.seconds(6), "concurrent close() calls") {
            async let first: Void = agent.close()
            async let second: Void = agent.close()
            _ = await (first, second)
        }
        // An agent that is simply released tears itself down on its GLib thread (no join, no leak of the loop).
        var dropped: ICEAgent? = try await ICEAgent(controlling: true, localAddresses: ["127.0.0.1"])
        try await dropped?.startGathering()
        dropped = nil
        #expect(dropped == nil)
    }

    @Test func unreachableSTUNAndTURNServersNeitherBlockHostCandidatesNorClose() async throws {
        // Nothing listens on these ports: no reflexive or relayed candidate, no allocation to release,
        // yet host candidates trickle at once and close() (nice_agent_close_async) stays bounded.
        let agent = try await ICEAgent(
            controlling: true, stunServer: STUNServer(host: "127.0.0.1", port: 9),
            turn: TURNServer(host: "127.0.0.1", port: 9, username: "user", password: "secret"),
            localAddresses: ["127.0.0.1"])
        let log = StreamRecorder<ICEEvent>()
        let pump = log.record(agent.events)
        try await agent.startGathering()
        try await log.wait("a host candidate") { !$0.localCandidates.isEmpty }
        #expect(log.elements.localCandidates.allSatisfy { $0.contains("typ host") })
        #expect(agent.localCandidates == log.elements.localCandidates)
        try await withTimeout(.seconds(6), "close() with STUN and TURN configured") { await agent.close() }
        await pump.value
        #expect(log.elements.states.last == .closed)
    }

    @Test func restartGivesNewCredentialsAndThePairReconnects() async throws {
        let pair = try await ICELoopbackPair()
        try await pair.connect()
        let before = (pair.controlling.localCredentials, pair.controlled.localCredentials)
        let pairsBefore = (
            pair.controllingLog.elements.selectedPairs.count, pair.controlledLog.elements.selectedPairs.count
        )

        // RFC 8445 §9: both sides restart (libnice: before the new remote credentials are set).
        let newControlling = try await pair.controlling.restart()
        let newControlled = try await pair.controlled.restart()
        #expect(newControlling != before.0 && newControlled != before.1)
        #expect(newControlling.ufrag != before.0.ufrag && newControlling.pwd != before.0.pwd)
        #expect(pair.controlling.localCredentials == newControlling)
        #expect(pair.controlled.localCredentials == newControlled)

        try await pair.exchangeCredentials()
        // The restarted peers forgot each other's candidates: signal them again.
        for line in pair.controlling.localCandidates { try await pair.controlled.addRemoteCandidate(line) }
        for line in pair.controlled.localCandidates { try await pair.controlling.addRemoteCandidate(line) }
        try await pair.controllingLog.wait("a pair selected after the restart (controlling)") {
            $0.selectedPairs.count > pairsBefore.0
        }
        try await pair.controlledLog.wait("a pair selected after the restart (controlled)") {
            $0.selectedPairs.count > pairsBefore.1
        }
        try await pair.waitUntilConnected()
        try await Self.exchange(20, of: 600, over: pair, tag: 1)
        await pair.close()
    }

    /// The host's addresses changed: the controlling side gathers again on a new stream (`regather`), the
    /// controlled side restarts (`restart`); a pair on the new stream carries datagrams again.
    @Test func regatherReconnectsOnANewStream() async throws {
        let pair = try await ICELoopbackPair()
        try await pair.connect()
        let pairsBefore = pair.controllingLog.elements.selectedPairs.count
        let candidatesBefore = pair.controllingLog.elements.localCandidates.count
        let newControlling = try await pair.controlling.regather()
        try await pair.controlling.startGathering()
        try await pair.controllingLog.wait("a new gathering") { $0.localCandidates.count > candidatesBefore }
        let newControlled = try await pair.controlled.restart()
        #expect(newControlling != newControlled)
        try await pair.exchangeCredentials()
        let fresh = Array(pair.controllingLog.elements.localCandidates.dropFirst(candidatesBefore))
        for line in fresh { try await pair.controlled.addRemoteCandidate(line) }
        for line in pair.controlled.localCandidates { try await pair.controlling.addRemoteCandidate(line) }
        try await pair.controllingLog.wait("a pair selected on the new stream") { $0.selectedPairs.count > pairsBefore }
        try await pair.waitUntilConnected()
        try await Self.exchange(20, of: 600, over: pair, tag: 3)
        await pair.close()
    }

    // MARK: - Helpers

    /// Sends `count` datagrams of `size` bytes each way, in windows the receiver confirms before the next
    /// (a burst larger than the socket buffer would be dropped by the kernel, not by us), and checks that
    /// every datagram arrived exactly once with its bytes intact.
    static func exchange(_ count: Int, of size: Int, over pair: ICELoopbackPair, tag: UInt8) async throws {
        for (sender, receiver, direction) in [
            (pair.controlling, pair.controlled, UInt8(1)), (pair.controlled, pair.controlling, UInt8(2)),
        ] {
            var arrived: [[UInt8]] = []
            let window = 25
            for start in stride(from: 0, to: count, by: window) {
                let batch = min(window, count - start)
                let receiving = Task { await receive(batch, from: receiver) }
                for index in start ..< start + batch {
                    try await sender.send(datagram(index: index, size: size, direction: direction, tag: tag))
                }
                let got = try await withTimeout(.seconds(5), "datagrams \(start)..<\(start + batch)") {
                    await receiving.value
                }
                #expect(got.count == batch)
                arrived += got
            }
            #expect(arrived.count == count)
            let expected = Set((0 ..< count).map { datagram(index: $0, size: size, direction: direction, tag: tag) })
            // Counted rather than compared as sets, so a failure reports numbers, not 240 kB of bytes.
            #expect(arrived.filter { !expected.contains($0) }.count == 0, "corrupted datagrams")
            #expect(Set(arrived).count == count, "duplicated datagrams")
            #expect(arrived.allSatisfy { $0.count == size })
        }
    }

    /// Index, direction and tag up front, then a pattern that depends on all three.
    static func datagram(index: Int, size: Int, direction: UInt8, tag: UInt8) -> [UInt8] {
        // First byte 128..191 so an RFC 7983 demultiplexer would call it RTP.
        var bytes = [UInt8(128 + (tag & 0x3F)), direction, UInt8(index >> 8), UInt8(index & 0xFF)]
        bytes += (4 ..< size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &* 7 &+ Int(direction)) }
        return bytes
    }

    /// "candidate:1 1 UDP 2013266431 127.0.0.1 50123 typ host" → "127.0.0.1 50123".
    static func address(of candidate: String) -> String {
        let fields = candidate.split(separator: " ")
        return fields.count >= 6 ? "\(fields[4]) \(fields[5])" : candidate
    }
}

/// The DTLS engine (Sources/WebRTC/DTLS) handshaking over a real ICE pair, as a call does: the
/// controlling agent (offerer) is the DTLS client, the controlled one the server (RFC 8842 `a=setup`).
extension ICEAgentTests {
    @Suite("DTLS-SRTP over the ICE pair")
    struct DTLSOverICE {
        @Test func dtlsHandshakeOverICEDerivesMatchingSRTPKeys() async throws {
            let pair = try await ICELoopbackPair()
            try await pair.connect()
            let clientCertificate = try DTLSCertificate(commonName: "client")
            let serverCertificate = try DTLSCertificate(commonName: "server")
            let (client, server) = try await withTimeout(.seconds(10), "DTLS handshake over ICE") {
                async let server = Self.handshake(
                    role: .server, over: pair.controlled, certificate: serverCertificate,
                    expecting: clientCertificate.fingerprint)
                async let client = Self.handshake(
                    role: .client, over: pair.controlling, certificate: clientCertificate,
                    expecting: serverCertificate.fingerprint)
                return try await (client, server)
            }
            #expect(client.profile == server.profile)
            #expect(client.localKey == server.remoteKey)
            #expect(client.localSalt == server.remoteSalt)
            #expect(client.remoteKey == server.localKey)
            #expect(client.remoteSalt == server.localSalt)
            #expect(client.localKey != client.remoteKey)
            #expect(client.localKey.count == client.profile.keyLength)
            await pair.close()
        }

        /// Drives one endpoint: its datagrams go out through `agent`, the agent's datagrams come in, until the
        /// endpoint reports keys. Loopback loses nothing, so no retransmission timer needs driving.
        static func handshake(
            role: DTLSRole, over agent: ICEAgent, certificate: DTLSCertificate, expecting fingerprint: String
        ) async throws -> SRTPKeyMaterial {
            let endpoint = try DTLSEndpoint(
                role: role, certificate: certificate, expectedRemoteFingerprint: fingerprint)
            let clock = ContinuousClock()
            let started = clock.now
            endpoint.start(now: .zero)
            while let datagram = endpoint.pollTransmit() { try await agent.send(datagram) }
            for await datagram in agent.datagrams {
                #expect((20 ... 63).contains(datagram[0]))  // RFC 7983: DTLS
                endpoint.handleDatagram(datagram, now: clock.now - started)
                while let reply = endpoint.pollTransmit() { try await agent.send(reply) }
                while let event = endpoint.pollEvent() {
                    switch event {
                    case .connected(let keys): return keys
                    case .failed(let error): throw error
                    case .closed, .applicationData: break
                    }
                }
            }
            throw ICETestTimeout(what: "DTLS keys (datagram stream ended)")
        }
    }
}
