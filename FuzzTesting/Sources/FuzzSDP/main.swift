import FuzzSupport
import WebRTCCore

/// Limits for re-reading serialized output: CRLF line ends and normalized lines may make it longer than the input.
let reparseLimits = SDPLimits(
    maxInputBytes: 1 << 20, maxLineBytes: 1 << 20, maxMediaSections: SDPLimits.standard.maxMediaSections)

/// SDP parser (reliability-test-matrix §(c) 1): any bytes parse or throw `SDPError`; a parsed description
/// serializes to text that parses back to an equal description. Every parsed description is also offered
/// to `SIPAudioAnswerer` under each `SIPSRTPMode`: it answers or throws `SIPAudioAnswerError`, and an answer
/// parses back equal, with one m= line per offered one and a payload type the offer listed; an RTP/SAVP answer
/// has exactly one crypto line, under a tag and suite the offer used; then to `SIPVideoAnswerer`. Every
/// `a=crypto` that parses writes back to a value that parses equal (RFC 4568 §9.1).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSDP(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let parsed = try? SessionDescription(parsing: fuzzInput(data, size)) else { return 0 }
    let text = parsed.serialized()
    let reparsed: SessionDescription
    do {
        reparsed = try SessionDescription(parsing: text, limits: reparseLimits)
    } catch {
        fuzzFail("serialized SDP does not parse: \(error)\n--- serialized ---\n\(text)")
    }
    fuzzRequire(reparsed == parsed, "SDP round trip changed the description\n--- serialized ---\n\(text)")
    for section in parsed.media {
        for crypto in section.cryptos {
            fuzzRequire((try? SDPCrypto(parsing: crypto.value)) == crypto, "a=crypto round trip changed \(crypto.value)")
        }
    }
    for mode in SIPSRTPMode.allCases { checkSIPAudioAnswer(to: parsed, srtp: mode) }
    return 0
}

func checkSIPAudioAnswer(to offer: SessionDescription, srtp: SIPSRTPMode) {
    let answerer = SIPAudioAnswerer(address: "192.0.2.1", port: 4000, sessionID: "1", srtp: srtp)
    guard let answer = try? answerer.answer(offer) else { return }
    let text = answer.session.serialized()
    let reparsed = try? SessionDescription(parsing: text, limits: reparseLimits)
    fuzzRequire(reparsed == answer.session, "SIP audio answer does not parse back equal\n--- answer ---\n\(text)")
    fuzzRequire(answer.session.media.count == offer.media.count, "answer m= count differs from the offer's")
    fuzzRequire(
        offer.media.contains { $0.payloads.contains { $0.payloadType == answer.payloadType } },
        "answer payload type \(answer.payloadType) is not in the offer")
    let chosen = answer.session.media.filter { $0.port != 0 }
    fuzzRequire(chosen.count == 1, "answer has \(chosen.count) accepted m= lines")
    let secure = chosen.first?.transportProtocol == "RTP/SAVP"
    fuzzRequire(secure == (answer.srtp != nil) && (srtp != .off || !secure) && (srtp != .mandatory || secure),
                "answer protocol \(chosen.first?.transportProtocol ?? "-") does not fit srtp \(srtp)")
    if let keys = answer.srtp {
        fuzzRequire(chosen.first?.cryptos.count == 1 && keys.local.count == keys.suite.keySaltLength,
                    "an RTP/SAVP answer needs exactly one crypto line with a full key")
        fuzzRequire(offer.media.contains { $0.cryptos.contains { $0.tag == keys.tag && $0.suite == keys.suite } },
                    "answer crypto tag \(keys.tag) is not one the offer used")
    }
    checkSIPVideoAnswer(to: offer, audioAnswer: answer.session)
}

/// `SIPVideoAnswerer` on the same offer: its section spliced into the audio answer keeps one m= line per offered
/// one, parses back equal, and answers a video section of the offer with a VP8 payload type it listed.
/// With `srtp` optional a secure section answered carries exactly our one crypto line.
func checkSIPVideoAnswer(to offer: SessionDescription, audioAnswer: SessionDescription) {
    for srtp in [SIPSRTPMode.off, .optional] {
        checkSIPVideoAnswer(to: offer, audioAnswer: audioAnswer, srtp: srtp)
    }
}

func checkSIPVideoAnswer(to offer: SessionDescription, audioAnswer: SessionDescription, srtp: SIPSRTPMode) {
    guard let video = SIPVideoAnswerer(port: 4002, srtp: srtp).answer(offer) else { return }
    fuzzRequire((video.srtp == nil) == (video.section.cryptos.isEmpty) && video.section.cryptos.count <= 1,
                "video answer's crypto lines do not match its keys")
    let spliced = SIPVideoAnswerer.splice(video, into: audioAnswer)
    let text = spliced.serialized()
    let reparsed = try? SessionDescription(parsing: text, limits: reparseLimits)
    fuzzRequire(reparsed == spliced, "SIP video answer does not parse back equal\n--- answer ---\n\(text)")
    fuzzRequire(spliced.media.count == offer.media.count, "video answer m= count differs from the offer's")
    fuzzRequire(offer.media.indices.contains(video.index) && offer.media[video.index].kind == .video
                    && offer.media[video.index].payloads.contains { $0.payloadType == video.payloadType },
                "video answer does not answer a VP8 payload of an offered video section")
}
