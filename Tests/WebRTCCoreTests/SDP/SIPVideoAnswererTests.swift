import Testing
@testable import WebRTCCore

@Suite("SIP video answer (VP8 over RTP/AVP and AVPF)")
struct SIPVideoAnswererTests {
    let answerer = SIPVideoAnswerer(port: 40002)

    func offer(_ video: [String]) throws -> SessionDescription {
        let lines = ["v=0", "o=- 1 1 IN IP4 198.51.100.7", "s=-", "c=IN IP4 198.51.100.7", "t=0 0",
                     "m=audio 10462 RTP/AVP 0", "a=rtpmap:0 PCMU/8000"] + video
        return try SessionDescription(parsing: lines.joined(separator: "\r\n") + "\r\n")
    }

    /// What baresip 1.0 offers with its vp8 module (plain RTP/AVP, no feedback).
    @Test func baresipVP8Offer() throws {
        let offered = try offer(["m=video 10464 RTP/AVP 100", "a=rtpmap:100 VP8/90000", "a=sendrecv"])
        let answer = try #require(answerer.answer(offered))
        #expect(answer.index == 1 && answer.payloadType == 100 && answer.direction == .sendrecv)
        #expect(answer.remoteAddress == "198.51.100.7" && answer.remotePort == 10464)
        #expect(!answer.acceptsKeyframeRequests)
        var session = offered
        session.media[1] = answer.section
        let text = session.serialized()
        #expect(text.contains("m=video 40002 RTP/AVP 100\r\n") && text.contains("a=rtpmap:100 VP8/90000\r\n"), "\(text)")
        #expect(!text.contains("rtcp-fb"))
    }

    /// AVPF with feedback: only `nack pli` and `ccm fir` are echoed. A phone that only sends video (`sendonly`)
    /// is answered `recvonly`: we take its video and send none.
    @Test func feedbackAndDirection() throws {
        let offered = try offer(["m=video 5000 RTP/AVPF 97 98", "c=IN IP4 203.0.113.9", "a=rtpmap:97 H264/90000",
                                 "a=rtpmap:98 VP8/90000", "a=rtcp-fb:98 nack", "a=rtcp-fb:98 nack pli",
                                 "a=rtcp-fb:98 ccm fir", "a=rtcp-fb:98 goog-remb", "a=sendonly"])
        let answer = try #require(answerer.answer(offered))
        #expect(answer.payloadType == 98 && answer.remoteAddress == "203.0.113.9" && answer.direction == .recvonly)
        #expect(answer.acceptsKeyframeRequests)
        #expect(answer.section.payloads.first?.feedback == ["nack", "nack pli", "ccm fir"] && answer.acceptsNACK)
        #expect(answer.section.transportProtocol == "RTP/AVPF")
    }

    @Test func nothingToAnswer() throws {
        #expect(answerer.answer(try offer([])) == nil)
        #expect(answerer.answer(try offer(["m=video 5000 RTP/AVP 97", "a=rtpmap:97 H264/90000"])) == nil)
        #expect(answerer.answer(try offer(["m=video 0 RTP/AVP 100", "a=rtpmap:100 VP8/90000"])) == nil)
        #expect(answerer.answer(try offer(["m=video 5000 RTP/SAVP 100", "a=rtpmap:100 VP8/90000"])) == nil)
        #expect(answerer.answer(try offer(["m=video 5000 UDP/TLS/RTP/SAVPF 100", "a=rtpmap:100 VP8/90000"])) == nil)
    }

    /// The audio answer refused the video section with port 0; the splice puts the answered one in its place.
    @Test func spliceIntoTheAudioAnswer() throws {
        let offered = try offer(["m=video 10464 RTP/AVP 100", "a=rtpmap:100 VP8/90000"])
        let audio = try SIPAudioAnswerer(address: "192.0.2.10", port: 40000, sessionID: "1").answer(offered)
        #expect(audio.session.media[1].port == 0)
        let video = try #require(answerer.answer(offered))
        let spliced = SIPVideoAnswerer.splice(video, into: audio.session)
        #expect(spliced.media.count == 2 && spliced.media[0] == audio.session.media[0])
        #expect(spliced.media[1].port == 40002 && spliced.media[1].kind == .video)
        #expect(try SessionDescription(parsing: spliced.serialized()) == spliced)
    }
}
