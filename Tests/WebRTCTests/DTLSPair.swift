import IntercomTestSupport
import WebRTC

/// Two endpoints wired back to back in memory: datagrams are shuttled until both sides report an event,
/// optionally dropping some with a seeded generator. OpenSSL's retransmission timer runs on the wall
/// clock, so when nothing is in flight the pair sleeps for the shorter `nextTimeout` and advances its
/// virtual clock by the same amount before calling `handleTimeout`.
final class DTLSPair {
    let client: DTLSEndpoint
    let server: DTLSEndpoint
    private(set) var now: Duration = .zero
    private(set) var clientEvents: [DTLSEvent] = []
    private(set) var serverEvents: [DTLSEvent] = []
    private(set) var dropped = 0
    private(set) var timeoutsHandled = 0

    init(
        profiles: [SRTPProfile] = SRTPProfile.allCases,
        clientExpects: String? = nil,
        serverCertificate: DTLSCertificate? = nil,
        mtu: Int = DTLSEndpoint.defaultMTU
    ) throws {
        let clientCertificate = try DTLSCertificate(commonName: "client")
        let serverCertificate = try serverCertificate ?? DTLSCertificate(commonName: "server")
        client = try DTLSEndpoint(
            role: .client, certificate: clientCertificate,
            expectedRemoteFingerprint: clientExpects ?? serverCertificate.fingerprint,
            srtpProfiles: profiles, mtu: mtu, initialRetransmitTimeout: .milliseconds(40))
        server = try DTLSEndpoint(
            role: .server, certificate: serverCertificate,
            expectedRemoteFingerprint: clientCertificate.fingerprint,
            srtpProfiles: profiles, mtu: mtu, initialRetransmitTimeout: .milliseconds(40))
    }

    /// Runs until both sides have produced at least one event (or `maxRounds` passes).
    func handshake(lossPercent: Int = 0, seed: UInt64 = 1) async throws {
        var random = SplitMix64(seed: seed)
        try await handshake { lossPercent > 0 && random.chance(percent: lossPercent) }
    }

    /// Same, asking `drop` about every datagram in sending order.
    func handshake(maxRounds: Int = 400, drop: () -> Bool) async throws {
        server.start(now: now)
        client.start(now: now)
        for _ in 0 ..< maxRounds {
            let moved = shuttle(drop: drop)
            if !clientEvents.isEmpty && !serverEvents.isEmpty { return }
            if moved { continue }
            let waits = [client.nextTimeout, server.nextTimeout].compactMap { $0 }
            guard let wait = waits.min() else { return }
            try await Task.sleep(for: wait)
            now += wait
            client.handleTimeout(now: now)
            server.handleTimeout(now: now)
            timeoutsHandled += 1
            collectEvents()
        }
    }

    /// Delivers every queued datagram once in each direction. Returns whether anything was delivered.
    @discardableResult
    func shuttle(drop: () -> Bool = { false }) -> Bool {
        var moved = false
        while let datagram = client.pollTransmit() {
            if drop() { dropped += 1 } else { server.handleDatagram(datagram, now: now); moved = true }
        }
        while let datagram = server.pollTransmit() {
            if drop() { dropped += 1 } else { client.handleDatagram(datagram, now: now); moved = true }
        }
        collectEvents()
        return moved
    }

    func collectEvents() {
        while let event = client.pollEvent() { clientEvents.append(event) }
        while let event = server.pollEvent() { serverEvents.append(event) }
    }

    var clientKeys: SRTPKeyMaterial? { Self.keys(in: clientEvents) }
    var serverKeys: SRTPKeyMaterial? { Self.keys(in: serverEvents) }

    private static func keys(in events: [DTLSEvent]) -> SRTPKeyMaterial? {
        for case .connected(let keys) in events { return keys }
        return nil
    }
}
