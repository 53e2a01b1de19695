import Testing
@testable import WebRTCCore

@Suite("SIP audio with SDES-SRTP (RTP/SAVP, RFC 4568)")
struct SIPAudioSRTPTests {
    static let key = SDPCryptoTests.rfcKey

    func answerer(_ mode: SIPSRTPMode) -> SIPAudioAnswerer {
        SIPAudioAnswerer(address: "192.0.2.10", port: 40000, sessionID: "4242", srtp: mode)
    }

    func offer(_ proto: String, _ cryptos: [String]) throws -> SessionDescription {
        let lines = ["v=0", "o=- 1 1 IN IP4 198.51.100.7", "s=-", "c=IN IP4 198.51.100.7", "t=0 0",
                     "m=audio 10462 \(proto) 0 8 101", "a=rtpmap:0 PCMU/8000", "a=rtpmap:8 PCMA/8000",
                     "a=rtpmap:101 telephone-event/8000"] + cryptos.map { "a=crypto:" + $0 } + [""]
        return try SessionDescription(parsing: lines.joined(separator: "\r\n"))
    }

    /// What baresip's srtp-mand offers: both suites, _32 first.
    var baresipCryptos: [String] {
        ["1 AES_CM_128_HMAC_SHA1_32 inline:\(Self.key)", "2 AES_CM_128_HMAC_SHA1_80 inline:\(Self.key)"]
    }

    @Test(arguments: [SIPSRTPMode.optional, .mandatory])
    func savpOfferIsAnsweredWithOneFreshKeyUnderTheOffersTagAndSuite(mode: SIPSRTPMode) throws {
        let answer = try answerer(mode).answer(offer("RTP/SAVP", baresipCryptos))
        let keys = try #require(answer.srtp)
        #expect(keys.tag == 1 && keys.suite == .aesCM128HMACSHA1_32)
        #expect(keys.remote == SDPBase64.decode(Substring(Self.key)))
        #expect(keys.local.count == 30 && keys.local != keys.remote)
        let section = answer.session.media[0]
        #expect(section.transportProtocol == "RTP/SAVP")
        #expect(section.cryptos == [SDPCrypto(tag: 1, suite: .aesCM128HMACSHA1_32, keySalt: keys.local)])
        // The answer parses back equal, and every call gets a new key (RFC 4568 §6.1).
        #expect(try SessionDescription(parsing: answer.session.serialized()) == answer.session)
        let again = try answerer(mode).answer(offer("RTP/SAVP", baresipCryptos))
        #expect(again.srtp?.local != keys.local)
    }

    @Test func unusableCryptoLinesAreSkippedForAUsableOne() throws {
        let cryptos = ["1 AES_CM_128_HMAC_SHA1_80 inline:garbage", "2 AES_256_CM_HMAC_SHA1_80 inline:\(Self.key)",
                       "3 AES_CM_128_HMAC_SHA1_80 inline:\(Self.key)|2^20|1:4", "4 AES_CM_128_HMAC_SHA1_80 inline:\(Self.key)"]
        let answer = try answerer(.optional).answer(offer("RTP/SAVP", cryptos))
        #expect(answer.srtp?.tag == 4 && answer.srtp?.suite == .aesCM128HMACSHA1_80)
    }

    @Test func savpWithoutAUsableCryptoIsRefused() throws {
        let error = #expect(throws: SIPAudioAnswerError.self) {
            try answerer(.optional).answer(offer("RTP/SAVP", ["1 AES_256_CM_HMAC_SHA1_80 inline:\(Self.key)"]))
        }
        #expect(error == .noUsableCrypto(offered: ["AES_256_CM_HMAC_SHA1_80"]))
        #expect(throws: SIPAudioAnswerError.noUsableCrypto(offered: [])) { try answerer(.mandatory).answer(offer("RTP/SAVP", [])) }
    }

    @Test func avpOfferIsAnsweredPlainlyUnderOptionalAndRefusedUnderMandatory() throws {
        let plain = try answerer(.optional).answer(offer("RTP/AVP", []))
        #expect(plain.srtp == nil && plain.session.media[0].transportProtocol == "RTP/AVP")
        #expect(plain.session.media[0].cryptos.isEmpty)
        let error = #expect(throws: SIPAudioAnswerError.self) { try answerer(.mandatory).answer(offer("RTP/AVP", [])) }
        #expect(error == .srtpRequired)
        #expect(error?.description.contains("mandatory") == true)
    }

    @Test func savpOfferIsRefusedUnderOff() throws {
        #expect(throws: SIPAudioAnswerError.srtpOff) { try answerer(.off).answer(offer("RTP/SAVP", baresipCryptos)) }
    }

    @Test func aSecureAndAPlainSectionGetSRTPUnlessOff() throws {
        var both = try offer("RTP/AVP", [])
        var secure = both.media[0]
        secure.transportProtocol = "RTP/SAVP"
        secure.otherAttributes = [SDPAttribute(name: "crypto", value: "1 AES_CM_128_HMAC_SHA1_80 inline:\(Self.key)")]
        both.media.append(secure)
        let optional = try answerer(.optional).answer(both)
        #expect(optional.srtp != nil && optional.session.media.map(\.port) == [0, 40000])
        let off = try answerer(.off).answer(both)
        #expect(off.srtp == nil && off.session.media.map(\.port) == [40000, 0])
    }

    @Test func mandatoryOffererOffersBothSuitesAndAcceptsTheAnswersTag() throws {
        let offerer = SIPAudioOfferer(address: "192.0.2.10", port: 40000, sessionID: "1", srtp: .mandatory)
        let section = offerer.offer.media[0]
        #expect(section.transportProtocol == "RTP/SAVP")
        #expect(section.cryptos.map(\.tag) == [1, 2])
        #expect(section.cryptos.map(\.suite) == [.aesCM128HMACSHA1_80, .aesCM128HMACSHA1_32])
        #expect(section.cryptos.allSatisfy { $0.keySalt.count == 30 } && section.cryptos[0].keySalt != section.cryptos[1].keySalt)
        // A callee under `optional` answers it; the keys cross over.
        let answer = try answerer(.optional).answer(offerer.offer)
        let accepted = try offerer.accept(answer.session)
        let ours = try #require(accepted.srtp), theirs = try #require(answer.srtp)
        #expect(ours.tag == 1 && ours.suite == .aesCM128HMACSHA1_80)
        #expect(ours.local == theirs.remote && ours.remote == theirs.local)
    }

    @Test func mandatoryOffererRefusesPlainOrMismatchedAnswers() throws {
        let offerer = SIPAudioOfferer(address: "192.0.2.10", port: 40000, sessionID: "1", srtp: .mandatory)
        #expect(throws: SIPAudioAnswerError.transportMismatch(offered: "RTP/SAVP", answered: "RTP/AVP")) {
            try offerer.accept(offer("RTP/AVP", []))
        }
        #expect(throws: SIPAudioAnswerError.cryptoMismatch) {
            try offerer.accept(offer("RTP/SAVP", ["1 AES_CM_128_HMAC_SHA1_32 inline:\(Self.key)"]))
        }
        #expect(throws: SIPAudioAnswerError.cryptoMismatch) { try offerer.accept(offer("RTP/SAVP", [])) }
        #expect(throws: SIPAudioAnswerError.cryptoMismatch) {
            try offerer.accept(offer("RTP/SAVP", ["1 AES_CM_128_HMAC_SHA1_80 inline:\(Self.key)",
                                                  "2 AES_CM_128_HMAC_SHA1_32 inline:\(Self.key)"]))
        }
        let accepted = try offerer.accept(offer("RTP/SAVP", ["2 AES_CM_128_HMAC_SHA1_32 inline:\(Self.key)"]))
        #expect(accepted.srtp?.suite == .aesCM128HMACSHA1_32 && accepted.srtp?.local == offerer.cryptos[1].keySalt)
    }

    @Test(arguments: [SIPSRTPMode.off, .optional])
    func otherModesOfferPlainRTPAndRefuseASecureAnswer(mode: SIPSRTPMode) throws {
        let offerer = SIPAudioOfferer(address: "192.0.2.10", port: 40000, sessionID: "1", srtp: mode)
        #expect(offerer.offer.media[0].transportProtocol == "RTP/AVP" && offerer.offer.media[0].cryptos.isEmpty)
        #expect(throws: SIPAudioAnswerError.transportMismatch(offered: "RTP/AVP", answered: "RTP/SAVP")) {
            try offerer.accept(offer("RTP/SAVP", ["1 AES_CM_128_HMAC_SHA1_80 inline:\(Self.key)"]))
        }
        #expect(try offerer.accept(offer("RTP/AVP", [])).srtp == nil)
    }
}
