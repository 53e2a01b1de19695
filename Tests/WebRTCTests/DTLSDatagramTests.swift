import Testing
import WebRTC

@Suite struct DTLSDatagramTests {
    /// Walks DTLS records (RFC 6347 §4.1: 13-byte header, length in bytes 11–12) and returns how many there
    /// are, or nil when the datagram does not end exactly on a record boundary.
    private func recordCount(_ datagram: [UInt8]) -> Int? {
        var offset = 0
        var count = 0
        while offset < datagram.count {
            guard offset + 13 <= datagram.count, (20 ... 63).contains(datagram[offset]) else { return nil }
            let length = Int(datagram[offset + 11]) << 8 | Int(datagram[offset + 12])
            offset += 13 + length
            count += 1
        }
        return offset == datagram.count ? count : nil
    }

    @Test func writeBIOKeepsEveryDatagramOfAFlightSeparate() throws {
        let mtu = 300
        let pair = try DTLSPair(mtu: mtu)
        pair.client.start(now: .zero)
        let hello = try #require(pair.client.pollTransmit())
        pair.server.handleDatagram(hello, now: .zero)
        // HelloVerifyRequest is not used; the server's flight is ServerHello … ServerHelloDone.
        var flight: [[UInt8]] = []
        while let datagram = pair.server.pollTransmit() { flight.append(datagram) }
        #expect(flight.count >= 3)
        for datagram in flight {
            #expect(datagram.count <= mtu)
            #expect(recordCount(datagram) != nil)
        }
        let total = flight.reduce(0) { $0 + $1.count }
        #expect(total > mtu)
    }

    @Test func defaultMTUFitsTheServerFlightInFewDatagrams() throws {
        let pair = try DTLSPair()
        pair.client.start(now: .zero)
        let hello = try #require(pair.client.pollTransmit())
        #expect(hello.first == 22)  // handshake record
        #expect(pair.client.pollTransmit() == nil)
        pair.server.handleDatagram(hello, now: .zero)
        var sizes: [Int] = []
        while let datagram = pair.server.pollTransmit() { sizes.append(datagram.count) }
        #expect(!sizes.isEmpty)
        #expect(sizes.allSatisfy { $0 <= DTLSEndpoint.defaultMTU })
    }

    @Test func retransmissionTimerRunsWhileAFlightIsUnanswered() throws {
        let pair = try DTLSPair()
        #expect(pair.client.nextTimeout == nil)
        pair.client.start(now: .zero)
        let timeout = try #require(pair.client.nextTimeout)
        #expect(timeout > .zero)
        #expect(timeout <= .milliseconds(40))
    }

    @Test func mtuBelowOpenSSLsMinimumIsAThrownError() throws {
        let certificate = try DTLSCertificate()
        #expect {
            _ = try DTLSEndpoint(role: .server, certificate: certificate,
                                 expectedRemoteFingerprint: certificate.fingerprint, mtu: 100)
        } throws: { error in
            guard case DTLSError.setupFailed(call: "DTLS_set_link_mtu", _) = error else { return false }
            return true
        }
    }

    @Test func handshakeDeadlineFailsTheEndpoint() throws {
        let pair = try DTLSPair()
        pair.client.start(now: .zero)
        pair.client.handleTimeout(now: DTLSEndpoint.defaultHandshakeTimeout)
        #expect(pair.client.pollEvent() == .failed(.handshakeTimedOut))
    }
}
