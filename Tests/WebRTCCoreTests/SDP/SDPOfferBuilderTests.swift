import IntercomTestSupport
import Testing
@testable import WebRTCCore

@Suite("SDP offer builder")
struct SDPOfferBuilderTests {
    let local = SDPAnswerBuilderTests.local

    @Test("offers bundled Opus and VP8 with setup:actpass and survives a round trip")
    func offer() throws {
        let offer = SDPOfferBuilder.offer(local: local)
        #expect(offer.bundleMids == ["0", "1"])
        #expect(offer.media.map(\.kind) == [.audio, .video])
        #expect(offer.media.allSatisfy { $0.transport.setup == .actpass && $0.rtcpMux })
        #expect(offer.media[0].payloads.map(\.payloadType) == [111])
        #expect(offer.media[1].payloads.map(\.payloadType) == [96])
        #expect(offer.media[1].direction == .sendonly)
        #expect(offer.media[1].headerExtensionID(for: HeaderExtensionMap.absoluteSendTimeURI) == 3)
        // Audio level (RFC 6464) describes audio packets: offered in the audio section only.
        #expect(offer.media[0].headerExtensionID(for: HeaderExtensionMap.audioLevelURI) == 1)
        #expect(offer.media[1].headerExtensionID(for: HeaderExtensionMap.audioLevelURI) == nil)
        #expect(try SessionDescription(parsing: offer.serialized()) == offer)
    }

    @Test("a browser's active answer makes us the DTLS server")
    func negotiatedFromBrowserAnswer() throws {
        let offer = SDPOfferBuilder.offer(local: local)
        let transport = [
            "a=ice-ufrag:Brws", "a=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1", "a=ice-options:trickle",
            "a=fingerprint:sha-256 \(ChromiumOfferFixture.fingerprintHex)", "a=setup:active",
        ]
        let answerText = (["v=0", "o=- 99 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1",
            "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0"] + transport + [
            "a=mid:0", "a=extmap:1 \(HeaderExtensionMap.audioLevelURI)", "a=extmap:3 \(HeaderExtensionMap.absoluteSendTimeURI)", "a=sendrecv", "a=rtcp-mux",
            "a=rtpmap:111 opus/48000/2", "a=fmtp:111 minptime=10;useinbandfec=1", "a=ssrc:77 cname:b",
            "m=video 9 UDP/TLS/RTP/SAVPF 96", "c=IN IP4 0.0.0.0"] + transport + [
            "a=mid:1", "a=recvonly", "a=rtcp-mux", "a=rtpmap:96 VP8/90000", "a=rtcp-fb:96 nack pli",
            "a=rtcp-fb:96 goog-remb", "a=candidate:1 1 udp 2122260223 10.0.0.2 5000 typ host", "a=end-of-candidates",
        ]).joined(separator: "\r\n")
        let session = try NegotiatedSession(local: offer, remote: try SessionDescription(parsing: answerText))
        #expect(session.dtlsRole == .server)
        #expect(session.remoteICEUfrag == "Brws")
        #expect(session.audio?.absoluteSendTimeID == 3)
        #expect(session.audio?.audioLevelID == 1)
        #expect(session.audio?.remoteSSRCs == [77])
        #expect(session.video?.direction == .sendonly)
        #expect(session.video?.feedback == ["nack pli", "goog-remb"])
        #expect(session.video?.absoluteSendTimeID == nil)
        #expect(session.remoteCandidates == ["1 1 udp 2122260223 10.0.0.2 5000 typ host"])
        #expect(session.remoteEndOfCandidates)
    }

    @Test("resolves DTLS roles per RFC 8842 and refuses clashes")
    func roles() throws {
        #expect(try NegotiatedSession.role(local: .active, remote: .actpass) == .client)
        #expect(try NegotiatedSession.role(local: .actpass, remote: .passive) == .client)
        #expect(try NegotiatedSession.role(local: .actpass, remote: .active) == .server)
        #expect(try NegotiatedSession.role(local: .passive, remote: nil) == .server)
        #expect(throws: SDPNegotiationError.incompatibleSetup(local: .active, remote: .active)) {
            try NegotiatedSession.role(local: .active, remote: .active)
        }
    }

    @Test("random endpoints have valid ICE credentials and distinct SSRCs")
    func randomEndpoint() throws {
        var generator = SplitMix64(seed: 7)
        let endpoint = SDPLocalEndpoint.random(fingerprint: local.fingerprint, using: &generator)
        #expect(endpoint.audioSSRC != endpoint.videoSSRC)
        let offer = SDPOfferBuilder.offer(local: endpoint)
        #expect(try SessionDescription(parsing: offer.serialized()).media[0].transport.iceUfrag == endpoint.iceUfrag)
    }
}
