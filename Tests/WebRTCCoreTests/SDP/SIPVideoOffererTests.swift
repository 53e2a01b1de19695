import Testing
@testable import WebRTCCore

@Suite("SIP video offer (VP8 beside the audio offer of a call the device places)")
struct SIPVideoOffererTests {
    func session(_ lines: [String]) throws -> SessionDescription {
        try SessionDescription(parsing: (["v=0", "o=- 1 1 IN IP4 192.0.2.10", "s=-", "c=IN IP4 192.0.2.10", "t=0 0"] + lines)
            .joined(separator: "\r\n") + "\r\n")
    }

    var audioOffer: SessionDescription {
        get throws {
            try session(["m=audio 40000 RTP/AVP 0 8 96 101", "a=rtpmap:0 PCMU/8000", "a=rtpmap:8 PCMA/8000",
                         "a=rtpmap:96 opus/48000/2", "a=rtpmap:101 telephone-event/8000"])
        }
    }

    @Test func offersVP8OnAFreeDynamicPayloadTypeAfterTheAudio() throws {
        let offerer = try #require(SIPVideoOfferer(port: 40002, audioOffer: try audioOffer))
        #expect(offerer.payloadType == 97)  // 96 is the audio's opus
        let offer = offerer.offer(adding: try audioOffer)
        #expect(offer.media.count == 2 && offer.media[1].kind == .video && offer.media[1].port == 40002)
        let text = offer.serialized()
        #expect(text.contains("m=video 40002 RTP/AVP 97\r\n") && text.contains("a=rtpmap:97 VP8/90000\r\n"), "\(text)")
        #expect(try SessionDescription(parsing: text) == offer)
    }

    @Test func noFreeDynamicPayloadType() throws {
        let crowded = try session(["m=audio 40000 RTP/AVP " + (96 ... 127).map(String.init).joined(separator: " ")])
        #expect(SIPVideoOfferer(port: 40002, audioOffer: crowded) == nil)
    }

    @Test func acceptsTheAnswersVideoOrItsRefusal() throws {
        let offerer = try #require(SIPVideoOfferer(port: 40002, audioOffer: try audioOffer))
        let answer = try session(["m=audio 5000 RTP/AVP 0", "a=rtpmap:0 PCMU/8000",
                                  "m=video 5002 RTP/AVPF 97", "c=IN IP4 198.51.100.9", "a=rtpmap:97 VP8/90000",
                                  "a=rtcp-fb:97 nack pli", "a=recvonly"])
        let accepted = try #require(offerer.accept(answer, index: 1))
        #expect(accepted.payloadType == 97 && accepted.remoteAddress == "198.51.100.9" && accepted.remotePort == 5002)
        #expect(accepted.direction == .sendonly && accepted.acceptsKeyframeRequests)
        let refused = try session(["m=audio 5000 RTP/AVP 0", "a=rtpmap:0 PCMU/8000", "m=video 0 RTP/AVP 97"])
        #expect(offerer.accept(refused, index: 1) == nil)
        let audioOnly = try session(["m=audio 5000 RTP/AVP 0", "a=rtpmap:0 PCMU/8000"])
        #expect(offerer.accept(audioOnly, index: 1) == nil)
        let h264 = try session(["m=audio 5000 RTP/AVP 0", "m=video 5002 RTP/AVP 98", "a=rtpmap:98 H264/90000"])
        #expect(offerer.accept(h264, index: 1) == nil)
    }
}
