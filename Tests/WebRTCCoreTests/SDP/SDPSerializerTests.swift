import Testing
@testable import WebRTCCore

@Suite("SDP serializer")
struct SDPSerializerTests {
    @Test("parse(serialize(x)) == x for a Chromium offer, and the text is stable")
    func roundTrip() throws {
        let parsed = try SessionDescription(parsing: ChromiumOfferFixture.text)
        let text = parsed.serialized()
        let reparsed = try SessionDescription(parsing: text)
        #expect(reparsed == parsed)
        #expect(reparsed.serialized() == text)
    }

    @Test("every line ends in CRLF and no line is lost")
    func crlfAndLineCount() throws {
        let text = try SessionDescription(parsing: ChromiumOfferFixture.text).serialized()
        #expect(text.hasSuffix("\r\n"))
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") })
        #expect(Set(lines.map(String.init)) == Set(ChromiumOfferFixture.lines.map {
            // msid-semantic is normalised: the value is trimmed.
            $0 == "a=msid-semantic: WMS 9f2c3d4e-stream" ? "a=msid-semantic:WMS 9f2c3d4e-stream" : $0
        }))
        #expect(lines.count == ChromiumOfferFixture.lines.count)
    }

    @Test("writes session lines in RFC 8866 order and media lines before attributes")
    func lineOrder() throws {
        let text = [
            "v=0", "o=- 1 1 IN IP4 0.0.0.0", "s=x", "a=tool:y", "b=AS:30", "t=0 0", "i=info", "r=7d 1h 0 25h",
            "m=audio 0 RTP/AVP 0", "a=x-unknown", "b=AS:10", "c=IN IP4 0.0.0.0",
        ].joined(separator: "\n")
        let serialized = try SessionDescription(parsing: text).serialized()
        #expect(serialized == [
            "v=0", "o=- 1 1 IN IP4 0.0.0.0", "s=x", "i=info", "b=AS:30", "t=0 0", "r=7d 1h 0 25h", "a=tool:y",
            "m=audio 0 RTP/AVP 0", "c=IN IP4 0.0.0.0", "b=AS:10", "a=x-unknown",
        ].map { $0 + "\r\n" }.joined())
    }

    @Test("a model built in code survives a round trip")
    func builtModel() throws {
        let fingerprint = SDPFingerprint(hashFunction: .sha256, digest: Array(0..<32))
        let model = SessionDescription(
            origin: SDPOrigin(sessionID: "42", sessionVersion: 7), groups: [.bundle(["a"])],
            transport: SDPTransport(fingerprints: [fingerprint]), msidSemantic: "WMS",
            otherAttributes: [SDPAttribute(name: "ice-lite")],
            media: [
                MediaDescription(
                    kind: .video, port: 9, portCount: 2,
                    payloads: [RTPPayloadFormat(
                        payloadType: 96, rtpmap: RTPMap(encodingName: "VP8", clockRate: 90000),
                        parameters: "max-fr=30", feedback: ["nack", "nack pli"])],
                    mid: "a", direction: .sendonly, rtcpMux: true, rtcpReducedSize: true,
                    transport: SDPTransport(
                        iceUfrag: "abcd", icePassword: String(repeating: "p", count: 22), iceOptions: ["trickle"],
                        setup: .active),
                    headerExtensions: [HeaderExtensionMap(id: 3, direction: .sendonly, uri: "urn:x", attributes: "y")],
                    mediaStreamIDs: [MediaStreamID(streamID: "-", trackID: "t")],
                    ssrcGroups: [SSRCGroup(semantics: "FID", ssrcs: [1, 2])],
                    ssrcAttributes: [SSRCAttribute(ssrc: 1, name: "cname", value: "c")],
                    candidates: ["1 1 udp 1 10.0.0.1 5000 typ host"], endOfCandidates: true,
                    otherLines: [SDPLine(type: "c", value: "IN IP4 0.0.0.0")]),
            ])
        #expect(try SessionDescription(parsing: model.serialized()) == model)
    }
}

@Suite("SDP: out-of-order lines survive a round trip (found by FuzzSDP)")
struct SDPLineOrderRoundTripTests {
    @Test("t/r lines and i after c in a media section come back equal after serialize → parse")
    func outOfOrderLines() throws {
        let text = [
            "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "r=7d 1h 0 25h", "t=1 2", "i=late info",
            "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "i=media info", "a=rtpmap:111 opus/48000/2", "",
        ].joined(separator: "\r\n")
        let parsed = try SessionDescription(parsing: text)
        let reparsed = try SessionDescription(parsing: parsed.serialized())
        #expect(reparsed == parsed)
        #expect(parsed.otherLines.map(\.type) == ["i", "t", "r"])
        #expect(parsed.media[0].otherLines.map(\.type) == ["i", "c"])
    }
}
