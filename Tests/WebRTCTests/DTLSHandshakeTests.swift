import IntercomTestSupport
import Testing
import WebRTC

@Suite struct DTLSHandshakeTests {
    @Test(arguments: SRTPProfile.allCases)
    func handshakeDerivesMatchingKeysForEachProfile(profile: SRTPProfile) async throws {
        let pair = try DTLSPair(profiles: [profile])
        try await pair.handshake()
        let client = try #require(pair.clientKeys)
        let server = try #require(pair.serverKeys)
        #expect(client.profile == profile)
        #expect(server.profile == profile)
        #expect(client.localKey == server.remoteKey)
        #expect(client.localSalt == server.remoteSalt)
        #expect(client.remoteKey == server.localKey)
        #expect(client.remoteSalt == server.localSalt)
        #expect(client.localKey != client.remoteKey)
        #expect(client.localKey.count == profile.keyLength)
        #expect(client.localSalt.count == profile.saltLength)
    }

    @Test func strongestCommonProfileAndDTLS12WinByDefault() async throws {
        let pair = try DTLSPair()
        try await pair.handshake()
        #expect(pair.clientKeys?.profile == .aeadAES256GCM)
        #expect(pair.client.protocolVersion == "DTLSv1.2")
        #expect(pair.server.protocolVersion == "DTLSv1.2")
    }

    @Test func lowercaseExpectedFingerprintStillMatches() async throws {
        let serverCertificate = try DTLSCertificate(commonName: "server")
        let pair = try DTLSPair(clientExpects: serverCertificate.fingerprint.lowercased(), serverCertificate: serverCertificate)
        try await pair.handshake()
        #expect(pair.clientKeys != nil)
    }

    @Test func garbageDatagramsNeitherCrashNorDerailTheHandshake() async throws {
        let pair = try DTLSPair()
        var random = SplitMix64(seed: 99)
        for _ in 0 ..< 200 {
            let length = 1 + random.below(300)
            var junk = (0 ..< length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if random.chance(percent: 50) { junk[0] = 22 }  // looks like a DTLS handshake record
            pair.server.handleDatagram(junk, now: .zero)
            pair.client.handleDatagram(junk, now: .zero)
        }
        #expect(pair.client.pollTransmit() == nil)  // an idle client ignores stray datagrams
        while pair.server.pollTransmit() != nil {}
        pair.collectEvents()
        #expect(pair.serverEvents.isEmpty)
        try await pair.handshake()
        let client = try #require(pair.clientKeys)
        #expect(client.localKey == pair.serverKeys?.remoteKey)
    }

    @Test(arguments: UInt64(1) ... 12)
    func handshakeSurvivesTwentyPercentLossThroughRetransmissions(seed: UInt64) async throws {
        let pair = try DTLSPair()
        try await pair.handshake(lossPercent: 20, seed: seed)
        let client = try #require(pair.clientKeys)
        let server = try #require(pair.serverKeys)
        #expect(client.localKey == server.remoteKey)
        #expect(client.remoteKey == server.localKey)
    }

    /// Index 0 is the ClientHello, 1 the server's first flight (one datagram at MTU 1200), 2 the client's
    /// second flight, 3 the server's final flight: losing each forces a timer-driven retransmission.
    @Test(arguments: 0 ... 3)
    func lostFlightIsRetransmittedAfterTheTimeout(lostIndex: Int) async throws {
        let pair = try DTLSPair()
        var index = 0
        try await pair.handshake {
            defer { index += 1 }
            return index == lostIndex
        }
        #expect(pair.dropped == 1)
        #expect(pair.timeoutsHandled > 0)
        #expect(pair.now > .zero)
        #expect(pair.clientKeys?.localKey == pair.serverKeys?.remoteKey)
        #expect(pair.clientKeys != nil)
    }

    @Test func wrongExpectedFingerprintFailsTheHandshake() async throws {
        let other = try DTLSCertificate(commonName: "impostor")
        let pair = try DTLSPair(clientExpects: other.fingerprint)
        try await pair.handshake()
        guard case .failed(.fingerprintMismatch(let expected, let actual)) = pair.clientEvents.first else {
            Issue.record("expected a fingerprint mismatch, got \(pair.clientEvents)")
            return
        }
        #expect(expected == other.fingerprint)
        #expect(actual == pair.server.certificate.fingerprint)
        #expect(pair.client.nextTimeout == nil)
        // The client hangs up with close_notify, so the server does not keep a call nobody verified.
        pair.shuttle()
        #expect(pair.serverEvents.last == .closed)
    }

    @Test func closeNotifyReachesThePeer() async throws {
        let pair = try DTLSPair()
        try await pair.handshake()
        #expect(pair.serverKeys != nil)
        pair.client.close()
        pair.shuttle()
        #expect(pair.serverEvents.last == .closed)
    }

    @Test func applicationDataCrossesTheAssociation() async throws {
        let pair = try DTLSPair()
        try await pair.handshake()
        try pair.client.send(applicationData: Array("hello".utf8))
        pair.shuttle()
        #expect(pair.serverEvents.last == .applicationData(Array("hello".utf8)))
    }

    @Test func serverAcceptsAClientHelloBeforeItsOwnerStartedIt() throws {
        let pair = try DTLSPair()
        pair.client.start(now: .zero)
        let hello = try #require(pair.client.pollTransmit())
        pair.server.handleDatagram(hello, now: .zero)
        #expect(pair.server.pollTransmit() != nil)
    }
}
