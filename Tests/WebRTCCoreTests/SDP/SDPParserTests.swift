import Testing
@testable import WebRTCCore

@Suite("SDP parser")
struct SDPParserTests {
    @Test("parses the session level of a Chromium offer")
    func chromiumSession() throws {
        let offer = try SessionDescription(parsing: ChromiumOfferFixture.text)
        #expect(offer.origin.sessionID == "4611731400430051336")
        #expect(offer.origin.sessionVersion == 2)
        #expect(offer.origin.address == "127.0.0.1")
        #expect(offer.bundleMids == ["0", "1", "2"])
        #expect(offer.msidSemantic == "WMS 9f2c3d4e-stream")
        #expect(offer.otherAttributes == [SDPAttribute(name: "extmap-allow-mixed")])
        #expect(offer.media.map(\.kind) == [.audio, .video, .application])
        #expect(offer.media.map(\.mid) == ["0", "1", "2"])
    }

    @Test("parses transport attributes at media level")
    func chromiumTransport() throws {
        let offer = try SessionDescription(parsing: ChromiumOfferFixture.text)
        let transport = offer.transport(for: offer.media[1])
        #expect(transport.iceUfrag == "EsAw")
        #expect(transport.icePassword == "P2uYro0UCOQ4zxjKXaWCBui1")
        #expect(transport.iceOptions == ["trickle"])
        #expect(transport.setup == .actpass)
        #expect(transport.fingerprints.count == 1)
        #expect(transport.fingerprints.first?.hashFunction == .sha256)
        #expect(transport.fingerprints.first?.digest.prefix(3) == [0xD2, 0xFA, 0x0E])
        #expect(transport.fingerprints.first?.hexDigest == ChromiumOfferFixture.fingerprintHex)
    }

    @Test("parses the audio section: payload types, rtpmap, fmtp, feedback, extmap, ssrc, candidates")
    func chromiumAudio() throws {
        let audio = try SessionDescription(parsing: ChromiumOfferFixture.text).media[0]
        #expect(audio.port == 9)
        #expect(audio.transportProtocol == "UDP/TLS/RTP/SAVPF")
        #expect(audio.payloads.map(\.payloadType) == [111, 63, 9, 0, 8, 13, 110, 126])
        let opus = try #require(audio.payload(named: "OPUS", clockRate: 48000))
        #expect(opus.payloadType == 111)
        #expect(opus.rtpmap == RTPMap(encodingName: "opus", clockRate: 48000, encodingParameters: "2"))
        #expect(opus.parameterPairs == ["minptime": "10", "useinbandfec": "1"])
        #expect(opus.feedback == ["transport-cc"])
        #expect(audio.direction == .sendrecv)
        #expect(audio.rtcpMux && audio.rtcpReducedSize)
        #expect(audio.headerExtensionID(for: HeaderExtensionMap.absoluteSendTimeURI) == 2)
        #expect(audio.headerExtensions.map(\.id) == [1, 2, 3, 4])
        #expect(audio.mediaStreamIDs == [MediaStreamID(streamID: "9f2c3d4e-stream", trackID: "7a1b2c3d-audio")])
        #expect(audio.ssrcs == [ChromiumOfferFixture.audioSSRC])
        #expect(audio.cname(of: ChromiumOfferFixture.audioSSRC) == "4TOk42mSjXCkVIa6")
        #expect(audio.candidates.count == 2)
        #expect(audio.candidates.first?.hasPrefix("1467250027 1 udp 2122260223 192.168.1.20") == true)
        #expect(audio.otherLines == [SDPLine(type: "c", value: "IN IP4 0.0.0.0")])
        #expect(audio.otherAttributes == [SDPAttribute(name: "rtcp", value: "9 IN IP4 0.0.0.0")])
    }

    @Test("parses the video section: VP8 with RTX, ssrc-group FID, many extmaps")
    func chromiumVideo() throws {
        let video = try SessionDescription(parsing: ChromiumOfferFixture.text).media[1]
        let vp8 = try #require(video.payload(named: "VP8", clockRate: 90000))
        #expect(vp8.payloadType == 96)
        #expect(vp8.feedback == ["goog-remb", "transport-cc", "ccm fir", "nack", "nack pli"])
        let rtx = try #require(video.payloads.first { $0.payloadType == 97 })
        #expect(rtx.rtpmap?.encodingName == "rtx")
        #expect(rtx.parameterPairs["apt"] == "96")
        #expect(video.headerExtensions.count == 11)
        #expect(video.headerExtensions.first == HeaderExtensionMap(id: 14, uri: "urn:ietf:params:rtp-hdrext:toffset"))
        #expect(video.ssrcGroups == [
            SSRCGroup(semantics: "FID", ssrcs: [ChromiumOfferFixture.videoSSRC, ChromiumOfferFixture.videoRTXSSRC])
        ])
        #expect(video.ssrcs == [ChromiumOfferFixture.videoSSRC, ChromiumOfferFixture.videoRTXSSRC])
    }

    @Test("keeps a non-RTP format list and unknown attributes of a data channel")
    func dataChannel() throws {
        let application = try SessionDescription(parsing: ChromiumOfferFixture.text).media[2]
        #expect(!application.isRTP)
        #expect(application.formats == ["webrtc-datachannel"])
        #expect(application.payloads.isEmpty)
        #expect(application.otherAttributes == [
            SDPAttribute(name: "sctp-port", value: "5000"), SDPAttribute(name: "max-message-size", value: "262144"),
        ])
    }

    @Test("accepts LF line ends, a missing final line end and blank trailing lines")
    func lineEndVariants() throws {
        let crlf = try SessionDescription(parsing: ChromiumOfferFixture.text)
        let lf = try SessionDescription(parsing: ChromiumOfferFixture.lines.joined(separator: "\n"))
        let trailing = try SessionDescription(parsing: ChromiumOfferFixture.text + "\r\n\r\n")
        #expect(lf == crlf)
        #expect(trailing == crlf)
    }

    @Test("parses UTF-8 bytes and rejects invalid UTF-8")
    func bytes() throws {
        let parsed = try SessionDescription(parsing: Array(ChromiumOfferFixture.text.utf8))
        #expect(parsed.media.count == 3)
        var invalid = Array(ChromiumOfferFixture.text.utf8)
        invalid[20] = 0xFF
        #expect(throws: SDPError(line: 0, reason: .invalidUTF8)) { try SessionDescription(parsing: invalid) }
    }

    @Test("a=rtcp-fb:* and setup at session level")
    func wildcardFeedbackAndSessionSetup() throws {
        let text = [
            "v=0", "o=mozilla...THIS_IS_SDPARTA-99.0 7432869154468389583 0 IN IP4 0.0.0.0", "s=-", "t=0 0",
            "a=fingerprint:sha-256 \(ChromiumOfferFixture.fingerprintHex)", "a=setup:passive",
            "a=ice-options:trickle", "m=video 9 UDP/TLS/RTP/SAVPF 120", "a=mid:v", "a=rtpmap:120 VP8/90000",
            "a=rtcp-fb:* nack", "a=recvonly",
        ].joined(separator: "\r\n")
        let parsed = try SessionDescription(parsing: text)
        #expect(parsed.transport.setup == .passive)
        #expect(parsed.transport(for: parsed.media[0]).setup == .passive)
        #expect(parsed.transport(for: parsed.media[0]).fingerprints.count == 1)
        #expect(parsed.media[0].otherAttributes == [SDPAttribute(name: "rtcp-fb", value: "* nack")])
        #expect(parsed.media[0].payloads[0].feedback.isEmpty)
        #expect(parsed.media[0].effectiveDirection == .recvonly)
    }
}
