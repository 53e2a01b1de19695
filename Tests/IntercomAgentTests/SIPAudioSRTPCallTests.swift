import IntercomAgent
import Logging
import Synchronization
import Testing
import WebRTC
import WebRTCCore

/// `SIPAudioCall` with SDES-SRTP (RTP/SAVP, RFC 4568) on the loopback: two calls talk protected audio and
/// SRTCP; against a scripted peer with its own libsrtp session, a tampered packet and a wrong key are dropped,
/// counted and never latched onto.
@Suite("SIP call audio over SRTP (SDES)", .serialized, .timeLimit(.minutes(1)))
struct SIPAudioSRTPCallTests {
    typealias Endpoints = SIPAudioCallTests.ScriptedEndpoints
    static let logger = SIPAudioCallTests.logger
    static let suite = SDPCrypto.Suite.aesCM128HMACSHA1_80

    /// A PCMU RTP/SAVP offer to `port` with `key` in one crypto line, as a phone with `srtp-mand` sends it.
    static func offer(port: UInt16, key: [UInt8]) -> String {
        (["v=0", "o=peer 1 1 IN IP4 127.0.0.1", "s=-", "c=IN IP4 127.0.0.1", "t=0 0", "m=audio \(port) RTP/SAVP 0",
          "a=rtpmap:0 PCMU/8000", "a=" + "crypto:" + SDPCrypto(tag: 7, suite: suite, keySalt: key).value, "a=sendrecv"])
            .joined(separator: "\r\n") + "\r\n"
    }

    /// The peer's libsrtp session: its own key out, the call's (from the answer's crypto line) in.
    static func peerSession(ownKey: [UInt8], answer: String) throws -> SRTPSession {
        let session = try SessionDescription(parsing: answer)
        let theirs = try #require(session.media.first?.cryptos.first)
        #expect(theirs.tag == 7 && theirs.suite == suite && session.media.first?.transportProtocol == "RTP/SAVP")
        let keys = SRTPKeyMaterial(profile: .aes128CMHMACSHA1_80, localKey: Array(ownKey.prefix(16)),
                                   localSalt: Array(ownKey.dropFirst(16)), remoteKey: Array(theirs.keySalt.prefix(16)),
                                   remoteSalt: Array(theirs.keySalt.dropFirst(16)))
        return try SRTPSession(keys: keys)
    }

    @Test("two calls, one offering mandatory SRTP and one answering optional, hear each other's tone and SRTCP")
    func twoCallsTalkSRTP() async throws {
        let callerEnds = Endpoints(), calleeEnds = Endpoints()
        let caller = try SIPAudioCall(localHost: "127.0.0.1", srtp: .mandatory, endpoints: callerEnds,
                                      rtcpInterval: .milliseconds(200), logger: Self.logger)
        #expect(caller.offer.contains(" RTP/SAVP ") && caller.offer.contains("a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:"))
        let callee = try SIPAudioCall(offer: caller.offer, localHost: "127.0.0.1", srtp: .optional, endpoints: calleeEnds,
                                      rtcpInterval: .milliseconds(200), logger: Self.logger)
        try caller.accept(answer: callee.answer)
        #expect(caller.counters.srtp == "AES_CM_128_HMAC_SHA1_80" && callee.counters.srtp == "AES_CM_128_HMAC_SHA1_80")
        caller.start(onDigit: { _ in }, onState: { _ in })
        callee.start(onDigit: { _ in }, onState: { _ in })
        async let one: Void = callerEnds.speak(hertz: 1000, frames: 50)
        async let two: Void = calleeEnds.speak(hertz: 600, frames: 50)
        _ = try await (one, two)
        #expect(try await SIPAudioCallTests.eventually {
            caller.counters.rtcpReceived > 0 && callee.counters.rtcpReceived > 0
        })
        await caller.stop()
        await callee.stop()
        for (call, ends) in [(caller, calleeEnds), (callee, callerEnds)] {
            let counters = call.counters
            #expect(counters.packetsSent >= 40 && counters.srtpFailed == 0 && counters.srtcpFailed == 0
                    && counters.packetsDropped == 0, "\(counters)")
            // Each protected packet is the 172-byte RTP packet plus the 10-byte HMAC-SHA1-80 tag (RFC 3711 §4.2).
            #expect(counters.bytesSent == counters.packetsSent * 182, "\(counters)")
            #expect(ends.played.withLock { $0.count } >= 40)
        }
    }

    @Test("against a scripted peer: its protected tone plays, a flipped byte is dropped and counted, ours decrypts")
    func tamperedPacketsAreDropped() async throws {
        let peer = try SIPAudioPeer()
        let peerKey = SIPSRTPKeys.freshKeySalt(for: Self.suite)
        let endpoints = Endpoints()
        let call = try SIPAudioCall(offer: Self.offer(port: peer.port, key: peerKey), localHost: "127.0.0.1", srtp: .mandatory,
                                    endpoints: endpoints, logger: Self.logger)
        let srtp = try Self.peerSession(ownKey: peerKey, answer: call.answer)
        call.start(onDigit: { _ in }, onState: { _ in })
        let tone = SIPAudioPeer.tonePackets(codec: .pcmu, payloadType: 0, hertz: 1000, count: 20)
        for packet in tone.prefix(10) { peer.send(try srtp.protectRTP(packet), to: call.local.port) }
        #expect(try await SIPAudioCallTests.eventually { call.counters.packetsReceived == 10 })
        // One byte flipped in the payload, one in the tag: both fail authentication (RFC 3711 §3.3 step 5).
        var payloadFlipped = try srtp.protectRTP(tone[10])
        payloadFlipped[20] ^= 0x01
        var tagFlipped = try srtp.protectRTP(tone[11])
        tagFlipped[tagFlipped.count - 1] ^= 0x80
        // And the plain packet, as a peer that ignored the answer would send it.
        for datagram in [payloadFlipped, tagFlipped, tone[12]] { peer.send(datagram, to: call.local.port) }
        #expect(try await SIPAudioCallTests.eventually { call.counters.srtpFailed == 3 })
        #expect(call.counters.packetsReceived == 10 && endpoints.played.withLock { $0.count } == 10)
        #expect(endpoints.played.withLock { $0 } == tone.prefix(10).map { Array($0.dropFirst(12)) })

        try await endpoints.speak(hertz: 1000, frames: 10)
        let received = peer.receive(count: 10, timeout: .seconds(3))
        #expect(received.count == 10)
        let plain = try received.map { try srtp.unprotectRTP($0) }
        #expect(plain.allSatisfy { $0.count == 172 && $0[1] & 0x7F == 0 })
        // On the wire the payload is encrypted: not what G.711 of the tone decodes from.
        #expect(zip(received, plain).allSatisfy { Array($0.dropFirst(12).prefix(160)) != Array($1.dropFirst(12)) })
        await call.stop()
    }

    @Test("a wrong key: nothing plays, every packet counted as failed, no latch onto its source")
    func wrongKeyGivesNoAudioAndNoLatch() async throws {
        let peer = try SIPAudioPeer()
        let offeredSink = try SIPAudioPeer()
        let peerKey = SIPSRTPKeys.freshKeySalt(for: Self.suite)
        let endpoints = Endpoints()
        let call = try SIPAudioCall(offer: Self.offer(port: offeredSink.port, key: peerKey), localHost: "127.0.0.1",
                                    srtp: .optional, endpoints: endpoints, logger: Self.logger)
        let wrong = try Self.peerSession(ownKey: SIPSRTPKeys.freshKeySalt(for: Self.suite), answer: call.answer)
        call.start(onDigit: { _ in }, onState: { _ in })
        let tone = SIPAudioPeer.tonePackets(codec: .pcmu, payloadType: 0, hertz: 1000, count: 25)
        for packet in tone.prefix(20) { peer.send(try wrong.protectRTP(packet), to: call.local.port) }
        #expect(try await SIPAudioCallTests.eventually { call.counters.srtpFailed == 20 })
        var counters = call.counters
        #expect(counters.packetsReceived == 0 && !counters.latched && counters.remote == "127.0.0.1:\(offeredSink.port)")
        #expect(endpoints.played.withLock { $0.isEmpty })
        // The right key from the same source: now it plays, and the call latches onto it.
        let right = try Self.peerSession(ownKey: peerKey, answer: call.answer)
        for packet in tone.suffix(5) { peer.send(try right.protectRTP(packet), to: call.local.port) }
        #expect(try await SIPAudioCallTests.eventually { call.counters.packetsReceived == 5 })
        counters = call.counters
        #expect(counters.latched && counters.remote == "127.0.0.1:\(peer.port)" && counters.srtpFailed == 20)
        await call.stop()
    }
}
