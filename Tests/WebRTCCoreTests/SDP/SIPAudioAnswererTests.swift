import Testing
@testable import WebRTCCore

@Suite("SIP audio answer (RTP/AVP)")
struct SIPAudioAnswererTests {
    let answerer = SIPAudioAnswerer(address: "192.0.2.10", port: 40000, sessionID: "4242")

    func offer(_ lines: [String]) throws -> SessionDescription {
        try SessionDescription(parsing: lines.joined(separator: "\r\n") + "\r\n")
    }

    /// SIPp's built-in uac scenario body.
    var sippOffer: [String] {
        ["v=0", "o=user1 53655765 2353687637 IN IP4 127.0.0.1", "s=-", "c=IN IP4 127.0.0.1", "t=0 0",
         "m=audio 6000 RTP/AVP 0", "a=rtpmap:0 PCMU/8000"]
    }

    /// What baresip sends with opus, G.711 and telephone-event enabled.
    var baresipOffer: [String] {
        ["v=0", "o=- 1652172519 3271838003 IN IP4 198.51.100.7", "s=-", "c=IN IP4 198.51.100.7", "t=0 0",
         "m=audio 10462 RTP/AVP 96 0 8 101", "b=AS:128",
         "a=rtpmap:96 opus/48000/2", "a=fmtp:96 stereo=1;sprop-stereo=1",
         "a=rtpmap:0 PCMU/8000", "a=rtpmap:8 PCMA/8000",
         "a=rtpmap:101 telephone-event/8000", "a=fmtp:101 0-15", "a=sendrecv", "a=label:1", "a=ssrc:1 cname:x",
         "a=rtcp-rsize", "a=ptime:20"]
    }

    @Test func sippPCMUOffer() throws {
        let answer = try answerer.answer(offer(sippOffer))
        #expect(answer.codec == .pcmu && answer.payloadType == 0 && answer.telephoneEventPayloadType == nil)
        #expect(answer.remoteAddress == "127.0.0.1" && answer.remotePort == 6000 && answer.direction == .sendrecv)
        let text = answer.session.serialized()
        #expect(text.contains("c=IN IP4 192.0.2.10\r\n"))
        #expect(text.contains("m=audio 40000 RTP/AVP 0\r\n"))
        #expect(text.contains("a=rtpmap:0 PCMU/8000\r\n"))
        #expect(text.contains("a=ptime:20\r\n") && text.contains("a=sendrecv\r\n"))
        // The answer is SDP our own parser reads back unchanged.
        #expect(try SessionDescription(parsing: text) == answer.session)
    }

    @Test func staticPayloadTypeWithoutRtpmap() throws {
        var lines = sippOffer
        lines[5] = "m=audio 6000 RTP/AVP 18 8"
        lines.removeLast()
        let answer = try answerer.answer(offer(lines))
        #expect(answer.codec == .pcma && answer.payloadType == 8)
    }

    @Test func baresipOfferFollowsOurPreferenceAndKeepsTelephoneEvent() throws {
        let answer = try answerer.answer(offer(baresipOffer))
        #expect(answer.codec == .pcmu && answer.payloadType == 0 && answer.telephoneEventPayloadType == 101)
        let text = answer.session.serialized()
        #expect(text.contains("m=audio 40000 RTP/AVP 0 101\r\n"))
        #expect(text.contains("a=rtpmap:101 telephone-event/8000\r\n") && text.contains("a=fmtp:101 0-15\r\n"))
        #expect(!text.contains("ssrc") && !text.contains("label"))

        var opusFirst = answerer
        opusFirst.preference = [.opus, .pcma]
        let opus = try opusFirst.answer(offer(baresipOffer))
        #expect(opus.codec == .opus && opus.payloadType == 96)
        #expect(opus.session.serialized().contains("a=rtpmap:96 opus/48000/2\r\n"))
        var alawOnly = answerer
        alawOnly.preference = [.pcma]
        #expect(try alawOnly.answer(offer(baresipOffer)).payloadType == 8)
    }

    @Test func directionIsReversed() throws {
        var lines = baresipOffer
        lines[13] = "a=sendonly"
        let answer = try answerer.answer(offer(lines))
        #expect(answer.direction == .recvonly)
        #expect(answer.session.serialized().contains("a=recvonly\r\n"))
    }

    @Test func onlyG729IsRefusedWithNoCommonCodec() throws {
        var lines = sippOffer
        lines[5] = "m=audio 6000 RTP/AVP 18"
        lines[6] = "a=rtpmap:18 G729/8000"
        let error = #expect(throws: SIPAudioAnswerError.self) { try answerer.answer(offer(lines)) }
        #expect(error == .noCommonCodec(offered: ["G729/8000"]))
        #expect(error?.description.hasPrefix("no common codec") == true)
    }

    @Test func videoOnlyIsRefused() throws {
        let lines = ["v=0", "o=- 1 1 IN IP4 203.0.113.5", "s=-", "c=IN IP4 203.0.113.5", "t=0 0",
                     "m=video 5004 RTP/AVP 96", "a=rtpmap:96 H264/90000"]
        #expect(throws: SIPAudioAnswerError.noAudio) { try answerer.answer(offer(lines)) }
    }

    @Test func sdesOfferIsRefusedWithAClearReasonWhenSRTPIsOff() throws {
        var lines = sippOffer
        lines[5] = "m=audio 6000 RTP/SAVP 0"
        lines.append("a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:WVNfX19zZW1jdGwgKCkgewkyMjA7fQp9CnVubGVz")
        let error = #expect(throws: SIPAudioAnswerError.self) { try answerer.answer(offer(lines)) }
        #expect(error == .srtpOff)
        #expect(error?.description.contains("SRTP is off") == true)
    }

    @Test func audioPlusVideoAnswersAudioAndRefusesVideo() throws {
        let lines = baresipOffer + ["m=video 10464 RTP/AVP 97", "a=rtpmap:97 VP8/90000", "c=IN IP4 198.51.100.8"]
        let answer = try answerer.answer(offer(lines))
        #expect(answer.session.media.count == 2)
        #expect(answer.session.media[1].kind == .video && answer.session.media[1].port == 0)
        #expect(answer.session.serialized().contains("m=video 0 RTP/AVP 97\r\n"))
    }

    @Test func mediaLevelConnectionWinsAndAMissingOneIsRefused() throws {
        var lines = sippOffer
        lines.insert("c=IN IP4 203.0.113.9", at: 6)
        #expect(try answerer.answer(offer(lines)).remoteAddress == "203.0.113.9")
        var none = sippOffer
        none.remove(at: 3)
        #expect(throws: SIPAudioAnswerError.missingConnectionAddress) { try answerer.answer(offer(none)) }
    }
}
