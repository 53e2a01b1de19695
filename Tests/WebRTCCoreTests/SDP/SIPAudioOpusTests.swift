import Testing
@testable import WebRTCCore

/// Opus (RFC 7587) in a plain SIP call's offer/answer: `opus/48000/2` under the offer's payload type, our
/// preference order, and our own offer with Opus under a dynamic payload type.
@Suite("SIP audio answer and offer with Opus")
struct SIPAudioOpusTests {
    func session(_ lines: [String]) throws -> SessionDescription {
        try SessionDescription(parsing: lines.joined(separator: "\r\n") + "\r\n")
    }

    func offer(formats: String, rtpmaps: [String], transport: String = "RTP/AVP") throws -> SessionDescription {
        try session(["v=0", "o=peer 1 1 IN IP4 198.51.100.7", "s=-", "c=IN IP4 198.51.100.7", "t=0 0",
                     "m=audio 10462 \(transport) \(formats)"] + rtpmaps + ["a=sendrecv"])
    }

    func answerer(_ preference: [SIPAudioCodec]) -> SIPAudioAnswerer {
        SIPAudioAnswerer(preference: preference, address: "192.0.2.10", port: 40000, sessionID: "1")
    }

    /// A linphone-like offer: Opus under 98, G.711, telephone-event.
    var linphone: [String] {
        ["a=rtpmap:98 opus/48000/2", "a=fmtp:98 useinbandfec=1", "a=rtpmap:101 telephone-event/8000"]
    }

    @Test func opusIsAnsweredUnderTheOffersPayloadTypeAsOpus48000Over2() throws {
        let answer = try answerer([.opus, .pcmu, .pcma]).answer(offer(formats: "0 8 98 101", rtpmaps: linphone))
        #expect(answer.codec == .opus && answer.payloadType == 98 && answer.telephoneEventPayloadType == 101)
        let text = answer.session.serialized()
        #expect(text.contains("m=audio 40000 RTP/AVP 98 101\r\n"))
        #expect(text.contains("a=rtpmap:98 opus/48000/2\r\n"))
        #expect(text.contains("a=fmtp:98 useinbandfec=1\r\n"))
        #expect(text.contains("a=ptime:20\r\n"))
        #expect(try SessionDescription(parsing: text) == answer.session)
    }

    @Test func ourPreferenceOrderWinsOverTheOffers() throws {
        let offered = try offer(formats: "98 0 8 101", rtpmaps: linphone)
        #expect(try answerer([.pcmu, .pcma]).answer(offered).codec == .pcmu)
        #expect(try answerer([.pcma, .opus]).answer(offered).codec == .pcma)
        #expect(try answerer([.opus, .pcmu]).answer(offered).codec == .opus)
        // The encoding name is case-insensitive (RFC 4855 §3): `OPUS/48000/2` is Opus.
        let shouted = try offer(formats: "120", rtpmaps: ["a=rtpmap:120 OPUS/48000/2"])
        #expect(try answerer([.opus]).answer(shouted).payloadType == 120)
    }

    @Test func anOpusOnlyOfferIsRefusedWithoutOpusInOurCodecs() throws {
        let offered = try offer(formats: "98", rtpmaps: ["a=rtpmap:98 opus/48000/2"])
        #expect(throws: SIPAudioAnswerError.noCommonCodec(offered: ["opus/48000"])) {
            try answerer([.pcmu, .pcma]).answer(offered)
        }
        // Opus at another clock rate is not RFC 7587 Opus.
        let wrongClock = try offer(formats: "98", rtpmaps: ["a=rtpmap:98 opus/16000/1"])
        #expect(throws: SIPAudioAnswerError.self) { try answerer([.opus]).answer(wrongClock) }
    }

    @Test func opusOverSDESIsAnsweredWithSRTP() throws {
        let key = "WVNfX19zZW1jdGwgKCkgewkyMjA7fQp9CnVubGVz"
        let offered = try offer(formats: "98", rtpmaps: ["a=rtpmap:98 opus/48000/2", "a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:\(key)"],
                                transport: "RTP/SAVP")
        var secure = answerer([.opus])
        secure.srtp = .mandatory
        let answer = try secure.answer(offered)
        #expect(answer.codec == .opus && answer.srtp?.suite == .aesCM128HMACSHA1_80)
        #expect(answer.session.serialized().contains("m=audio 40000 RTP/SAVP 98\r\n"))
    }

    @Test func theOfferListsOurCodecsInOrderWithOpusUnder111() throws {
        let offerer = SIPAudioOfferer(codecs: [.opus, .pcmu, .pcma], address: "192.0.2.10", port: 40000, sessionID: "1")
        let text = offerer.offer.serialized()
        #expect(text.contains("m=audio 40000 RTP/AVP 111 0 8 101 102\r\n"))
        #expect(text.contains("a=rtpmap:101 telephone-event/8000\r\n") && text.contains("a=rtpmap:102 telephone-event/48000\r\n"))
        #expect(text.contains("a=rtpmap:111 opus/48000/2\r\n") && text.contains("a=fmtp:111 useinbandfec=1\r\n"))
        let pcmaFirst = SIPAudioOfferer(codecs: [.pcma, .opus], address: "192.0.2.10", port: 40000, sessionID: "1")
        #expect(pcmaFirst.offer.serialized().contains("m=audio 40000 RTP/AVP 8 111 101 102\r\n"))
        let g711 = SIPAudioOfferer(address: "192.0.2.10", port: 40000, sessionID: "1")
        #expect(g711.offer.serialized().contains("m=audio 40000 RTP/AVP 0 8 101\r\n") && !g711.offer.serialized().contains("opus"))
    }

    @Test func telephoneEventAtTheCodecsClockRateIsPreferredElse8000() throws {
        // RFC 4733 §2.1: beside Opus, telephone-event/48000 when offered; else the /8000 one phones offer.
        let both = try offer(formats: "98 0 101 102", rtpmaps: linphone + ["a=rtpmap:102 telephone-event/48000"])
        let opus = try answerer([.opus, .pcmu]).answer(both)
        #expect(opus.telephoneEventPayloadType == 102 && opus.telephoneEventClockRate == 48000)
        #expect(opus.session.serialized().contains("m=audio 40000 RTP/AVP 98 102\r\n"))
        #expect(opus.session.serialized().contains("a=rtpmap:102 telephone-event/48000\r\n"))
        let pcmu = try answerer([.pcmu]).answer(both)
        #expect(pcmu.telephoneEventPayloadType == 101 && pcmu.telephoneEventClockRate == 8000)
        let only8000 = try answerer([.opus]).answer(offer(formats: "98 101", rtpmaps: linphone))
        #expect(only8000.telephoneEventPayloadType == 101 && only8000.telephoneEventClockRate == 8000)
        // G.711 never takes the 48 kHz one.
        let only48000 = try answerer([.pcmu]).answer(offer(formats: "0 102", rtpmaps: ["a=rtpmap:102 telephone-event/48000"]))
        #expect(only48000.telephoneEventPayloadType == nil)
        // Our own Opus offer reads an answer's telephone-event/48000.
        let offerer = SIPAudioOfferer(codecs: [.opus, .pcmu], address: "192.0.2.10", port: 40000, sessionID: "1")
        let read = try offerer.accept(offer(formats: "111 102", rtpmaps: ["a=rtpmap:111 opus/48000/2",
                                                                        "a=rtpmap:102 telephone-event/48000"]))
        #expect(read.telephoneEventPayloadType == 102 && read.telephoneEventClockRate == 48000)
    }

    @Test func anOpusAnswerIsReadWithItsPayloadType() throws {
        let offerer = SIPAudioOfferer(codecs: [.opus, .pcmu], address: "192.0.2.10", port: 40000, sessionID: "1")
        let answer = try offerer.accept(offer(formats: "111 101", rtpmaps: ["a=rtpmap:111 opus/48000/2",
                                                                           "a=rtpmap:101 telephone-event/8000"]))
        #expect(answer.codec == .opus && answer.payloadType == 111 && answer.telephoneEventPayloadType == 101)
        #expect(answer.remoteAddress == "198.51.100.7" && answer.remotePort == 10462)
        // A G.711-only offer of ours cannot take an Opus answer.
        let g711 = SIPAudioOfferer(address: "192.0.2.10", port: 40000, sessionID: "1")
        #expect(throws: SIPAudioAnswerError.self) {
            try g711.accept(offer(formats: "111", rtpmaps: ["a=rtpmap:111 opus/48000/2"]))
        }
    }
}
