import Testing
@testable import WebRTCCore

@Suite("SDP answer builder")
struct SDPAnswerBuilderTests {
    static let local = SDPLocalEndpoint(
        iceUfrag: "dEv1", icePassword: "abcdefghijklmnopqrstuvwx",
        fingerprint: SDPFingerprint(hashFunction: .sha256, digest: Array(repeating: 0xAB, count: 32)),
        cname: "intercom-cname", streamID: "intercom", audioTrackID: "mic", videoTrackID: "cam",
        audioSSRC: 1111, videoSSRC: 2222, sessionID: "123456789")

    func answerToChromium(receiveVideo: Bool = false) throws -> SessionDescription {
        let offer = try SessionDescription(parsing: ChromiumOfferFixture.text)
        return try SDPAnswerBuilder.answer(
            to: offer, local: Self.local, capabilities: .intercom(receiveVideo: receiveVideo))
    }

    @Test("keeps every mid and section order, bundles the accepted ones")
    func midsAndBundle() throws {
        let answer = try answerToChromium()
        #expect(answer.media.map(\.mid) == ["0", "1", "2"])
        #expect(answer.media.map(\.kind) == [.audio, .video, .application])
        #expect(answer.bundleMids == ["0", "1"])
    }

    @Test("answers Opus with the offer's payload type and our fmtp")
    func audio() throws {
        let audio = try answerToChromium().media[0]
        #expect(audio.port == 9)
        #expect(audio.payloads == [RTPPayloadFormat(
            payloadType: 111, rtpmap: RTPMap(encodingName: "opus", clockRate: 48000, encodingParameters: "2"),
            parameters: "minptime=10;useinbandfec=1")])
        #expect(audio.direction == .sendrecv)
        #expect(audio.rtcpMux && audio.rtcpReducedSize)
    }

    @Test("answers VP8 without RTX, with the feedback both sides know")
    func video() throws {
        let video = try answerToChromium().media[1]
        #expect(video.payloads.map(\.payloadType) == [96])
        #expect(video.payloads[0].feedback == ["nack", "nack pli", "ccm fir", "goog-remb"])
        #expect(video.ssrcGroups.isEmpty)
        #expect(video.direction == .sendonly)
    }

    @Test("accepts audio level (audio only) and abs-send-time, under the offer's ids; nothing else")
    func headerExtensions() throws {
        let answer = try answerToChromium()
        #expect(answer.media[0].headerExtensions == [
            HeaderExtensionMap(id: 1, uri: HeaderExtensionMap.audioLevelURI),
            HeaderExtensionMap(id: 2, uri: HeaderExtensionMap.absoluteSendTimeURI),
        ])
        #expect(answer.media[1].headerExtensions == [HeaderExtensionMap(id: 2, uri: HeaderExtensionMap.absoluteSendTimeURI)])
    }

    @Test("audio level offered in a video section is not accepted there")
    func audioLevelStaysInAudio() throws {
        let offer = ChromiumOfferFixture.text { lines in
            lines.map { $0 == "a=extmap:14 urn:ietf:params:rtp-hdrext:toffset" ? "a=extmap:9 \(HeaderExtensionMap.audioLevelURI)" : $0 }
        }
        let video = try SDPAnswerBuilder.answer(
            to: try SessionDescription(parsing: offer), local: Self.local, capabilities: .intercom()).media[1]
        #expect(!video.headerExtensions.contains { $0.uri == HeaderExtensionMap.audioLevelURI })
    }

    @Test("rejects the data channel with port 0 and its formats")
    func rejectsDataChannel() throws {
        let application = try answerToChromium().media[2]
        #expect(application.port == 0)
        #expect(application.formats == ["webrtc-datachannel"])
        #expect(application.transportProtocol == "UDP/DTLS/SCTP")
        #expect(application.transport == SDPTransport())
    }

    @Test("sets our ICE, fingerprint, setup:active, msid and ssrc cname on sending sections")
    func identity() throws {
        let answer = try answerToChromium()
        for (index, (ssrc, track)) in [(1111 as UInt32, "mic"), (2222, "cam")].enumerated() {
            let section = answer.media[index]
            #expect(section.transport.iceUfrag == "dEv1")
            #expect(section.transport.icePassword == "abcdefghijklmnopqrstuvwx")
            #expect(section.transport.setup == .active)
            #expect(section.transport.fingerprints == [Self.local.fingerprint])
            #expect(section.mediaStreamIDs == [MediaStreamID(streamID: "intercom", trackID: track)])
            #expect(section.cname(of: ssrc) == "intercom-cname")
        }
    }

    @Test("a kiosk that wants video answers sendrecv")
    func receiveVideo() throws {
        #expect(try answerToChromium(receiveVideo: true).media[1].direction == .sendrecv)
    }

    @Test("directions intersect with the offer's")
    func directionIntersection() throws {
        let offer = ChromiumOfferFixture.text { lines in
            var seenSendrecv = 0
            return lines.map { line in
                guard line == "a=sendrecv" else { return line }
                seenSendrecv += 1
                return seenSendrecv == 1 ? "a=sendonly" : "a=recvonly"
            }
        }
        let answer = try SDPAnswerBuilder.answer(
            to: try SessionDescription(parsing: offer), local: Self.local, capabilities: .intercom(receiveVideo: true))
        #expect(answer.media[0].direction == .recvonly)
        #expect(answer.media[0].mediaStreamIDs.isEmpty)
        #expect(answer.media[0].ssrcAttributes.isEmpty)
        #expect(answer.media[1].direction == .sendonly)
    }

    @Test("answers passive to an active offer and to one without a=setup")
    func passive() throws {
        for replacement in ["a=setup:active", nil] {
            let offer = try SessionDescription(parsing: ChromiumOfferFixture.replacing("a=setup:actpass", with: replacement))
            let answer = try SDPAnswerBuilder.answer(to: offer, local: Self.local)
            #expect(answer.media[0].transport.setup == .passive)
        }
    }

    @Test("refuses holdconn, missing credentials, missing fingerprint, no BUNDLE, no codec")
    func refusals() throws {
        func answer(_ text: String) throws(SDPNegotiationError) {
            let offer: SessionDescription
            do { offer = try SessionDescription(parsing: text) } catch { Issue.record("\(error)"); return }
            _ = try SDPAnswerBuilder.answer(to: offer, local: Self.local)
        }
        #expect(throws: SDPNegotiationError.incompatibleSetup(local: nil, remote: .holdconn)) {
            try answer(ChromiumOfferFixture.replacing("a=setup:actpass", with: "a=setup:holdconn"))
        }
        #expect(throws: SDPNegotiationError.missingICECredentials(mid: "0")) {
            try answer(ChromiumOfferFixture.replacing("a=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1", with: nil))
        }
        #expect(throws: SDPNegotiationError.missingFingerprint(mid: "0")) {
            try answer(ChromiumOfferFixture.replacing(
                "a=fingerprint:sha-256 \(ChromiumOfferFixture.fingerprintHex)", with: nil))
        }
        #expect(throws: SDPNegotiationError.bundleRequired) {
            try answer(ChromiumOfferFixture.replacing("a=group:BUNDLE 0 1 2", with: nil))
        }
        #expect(throws: SDPNegotiationError.noCompatibleMedia) {
            try answer(ChromiumOfferFixture.text { lines in
                lines.map { $0.replacing("opus/", with: "speex/").replacing("VP8/", with: "VP9/") }
            })
        }
        #expect(throws: SDPNegotiationError.missingMid(index: 2)) {
            try answer(ChromiumOfferFixture.text { lines in lines.filter { $0 != "a=mid:2" }.map {
                $0 == "a=group:BUNDLE 0 1 2" ? "a=group:BUNDLE 0 1" : $0 } })
        }
    }

    @Test("the answer serializes, reparses, and negotiates as DTLS client")
    func negotiatedFromAnswer() throws {
        let offer = try SessionDescription(parsing: ChromiumOfferFixture.text)
        let answer = try SessionDescription(parsing: try answerToChromium().serialized())
        #expect(answer == (try answerToChromium()))
        let session = try NegotiatedSession(local: answer, remote: offer)
        #expect(session.dtlsRole == .client)
        #expect(session.remoteICEUfrag == "EsAw")
        #expect(session.remoteICEPassword == "P2uYro0UCOQ4zxjKXaWCBui1")
        #expect(session.remoteFingerprints.first?.hexDigest == ChromiumOfferFixture.fingerprintHex)
        #expect(session.remoteCandidates.count == 2)
        #expect(!session.remoteEndOfCandidates)
        #expect(session.audio == NegotiatedMedia(
            mid: "0", payloadType: 111, clockRate: 48000, direction: .sendrecv, feedback: [], absoluteSendTimeID: 2,
            audioLevelID: 1, remoteSSRCs: [ChromiumOfferFixture.audioSSRC]))
        #expect(session.video == NegotiatedMedia(
            mid: "1", payloadType: 96, clockRate: 90000, direction: .sendonly,
            feedback: ["nack", "nack pli", "ccm fir", "goog-remb"], absoluteSendTimeID: 2,
            remoteSSRCs: [ChromiumOfferFixture.videoSSRC, ChromiumOfferFixture.videoRTXSSRC]))
    }
}
