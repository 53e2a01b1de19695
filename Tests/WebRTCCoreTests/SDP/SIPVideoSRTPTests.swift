import Testing
@testable import WebRTCCore

/// SIP video over SDES-SRTP (RTP/SAVP with a=crypto, RFC 4568) as `[sip] srtp` allows, both when the device
/// answers and when it offers: never plain video beside `mandatory`, never a key it cannot use.
@Suite("SIP video with SDES-SRTP")
struct SIPVideoSRTPTests {
    static let key = "WVNfX19zZW1jdGwgKCkgewkyMjA7fQp9CnVubGVz"

    func offer(_ video: [String]) throws -> SessionDescription {
        let lines = ["v=0", "o=- 1 1 IN IP4 198.51.100.7", "s=-", "c=IN IP4 198.51.100.7", "t=0 0",
                     "m=audio 10462 RTP/SAVP 0", "a=rtpmap:0 PCMU/8000", "a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:\(Self.key)"] + video
        return try SessionDescription(parsing: lines.joined(separator: "\r\n") + "\r\n")
    }

    /// What baresip 1.0 offers with `mediaenc=srtp-mand` and its vp8 module.
    var secureVideo: [String] {
        ["m=video 10464 RTP/SAVP 100", "a=rtpmap:100 VP8/90000",
         "a=crypto:1 AES_CM_128_HMAC_SHA1_32 inline:\(Self.key)", "a=crypto:2 AES_CM_128_HMAC_SHA1_80 inline:\(Self.key)"]
    }

    @Test("a secure video section is answered with its first usable crypto and a fresh key of ours, unless srtp is off")
    func answersSecureVideo() throws {
        let offered = try offer(secureVideo)
        for mode in [SIPSRTPMode.optional, .mandatory] {
            let answer = try #require(SIPVideoAnswerer(port: 40002, srtp: mode).answer(offered))
            let keys = try #require(answer.srtp)
            #expect(keys.tag == 1 && keys.suite == .aesCM128HMACSHA1_32 && keys.local.count == 30 && keys.local != keys.remote)
            #expect(answer.section.transportProtocol == "RTP/SAVP" && answer.section.cryptos.count == 1)
            #expect(answer.section.cryptos.first?.keySalt == keys.local)
        }
        #expect(SIPVideoAnswerer(port: 40002, srtp: .off).answer(offered) == nil)
    }

    @Test("plain video is refused under mandatory; a secure section without a usable key is refused")
    func refusals() throws {
        let plain = try offer(["m=video 10464 RTP/AVP 100", "a=rtpmap:100 VP8/90000"])
        #expect(SIPVideoAnswerer(port: 40002, srtp: .mandatory).answer(plain) == nil)
        #expect(SIPVideoAnswerer(port: 40002, srtp: .optional).answer(plain)?.srtp == nil)
        let keyless = try offer(["m=video 10464 RTP/SAVP 100", "a=rtpmap:100 VP8/90000"])
        #expect(SIPVideoAnswerer(port: 40002, srtp: .optional).answer(keyless) == nil)
    }

    @Test("beside a secure audio offer the video is offered RTP/SAVP with keys of its own; the answer's crypto gives the keys")
    func offersSecureVideo() throws {
        let audio = SIPAudioOfferer(address: "192.0.2.10", port: 40000, sessionID: "1", srtp: .mandatory)
        let offerer = try #require(SIPVideoOfferer(port: 40002, audioOffer: audio.offer))
        #expect(offerer.section.transportProtocol == "RTP/SAVP" && offerer.cryptos.count == 2)
        #expect(Set(offerer.cryptos.map(\.keySalt)).isDisjoint(with: audio.cryptos.map(\.keySalt)))
        let offer = offerer.offer(adding: audio.offer)
        // The callee answers the video with our tag 2 suite and its own key.
        var answer = offer
        var video = MediaDescription(kind: .video, port: 5004, transportProtocol: "RTP/SAVP", direction: .sendrecv)
        video.payloads = [RTPPayloadFormat(payloadType: offerer.payloadType, rtpmap: RTPMap(encodingName: "VP8", clockRate: 90_000))]
        let theirs = SIPSRTPKeys.freshKeySalt(for: .aesCM128HMACSHA1_32)
        video.otherAttributes = [SDPCrypto(tag: 2, suite: .aesCM128HMACSHA1_32, keySalt: theirs).attribute]
        answer.media[1] = video
        let accepted = try #require(offerer.accept(answer, index: 1))
        #expect(accepted.srtp?.tag == 2 && accepted.srtp?.remote == theirs && accepted.srtp?.local == offerer.cryptos[1].keySalt)
        // A plain answer to the secure offer, or an unknown tag: no video.
        video.transportProtocol = "RTP/AVP"
        video.otherAttributes = []
        answer.media[1] = video
        #expect(offerer.accept(answer, index: 1) == nil)
        video.transportProtocol = "RTP/SAVP"
        video.otherAttributes = [SDPCrypto(tag: 7, suite: .aesCM128HMACSHA1_80, keySalt: theirs).attribute]
        answer.media[1] = video
        #expect(offerer.accept(answer, index: 1) == nil)
        // Beside plain audio, plain video as before.
        let plainAudio = SIPAudioOfferer(address: "192.0.2.10", port: 40000, sessionID: "1")
        #expect(SIPVideoOfferer(port: 40002, audioOffer: plainAudio.offer)?.cryptos.isEmpty == true)
    }
}
