import FuzzSupport
import WebRTCCore

/// Limits for re-reading serialized output: CRLF line ends and normalized lines may make it longer than the input.
let reparseLimits = SDPLimits(
    maxInputBytes: 1 << 20, maxLineBytes: 1 << 20, maxMediaSections: SDPLimits.standard.maxMediaSections)

/// SDP parser (reliability-test-matrix §(c) 1): any bytes parse or throw `SDPError`; a parsed description
/// serializes to text that parses back to an equal description. Every parsed description is also offered
/// to `SIPAudioAnswerer`: it answers or throws `SIPAudioAnswerError`, and an answer parses back equal, with
/// one m= line per offered one and a payload type the offer listed; then to `SIPVideoAnswerer`.
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
    checkSIPAudioAnswer(to: parsed)
    return 0
}

func checkSIPAudioAnswer(to offer: SessionDescription) {
    let answerer = SIPAudioAnswerer(address: "192.0.2.1", port: 4000, sessionID: "1")
    guard let answer = try? answerer.answer(offer) else { return }
    let text = answer.session.serialized()
    let reparsed = try? SessionDescription(parsing: text, limits: reparseLimits)
    fuzzRequire(reparsed == answer.session, "SIP audio answer does not parse back equal\n--- answer ---\n\(text)")
    fuzzRequire(answer.session.media.count == offer.media.count, "answer m= count differs from the offer's")
    fuzzRequire(
        offer.media.contains { $0.payloads.contains { $0.payloadType == answer.payloadType } },
        "answer payload type \(answer.payloadType) is not in the offer")
    checkSIPVideoAnswer(to: offer, audioAnswer: answer.session)
}

/// `SIPVideoAnswerer` on the same offer: its section spliced into the audio answer keeps one m= line per offered
/// one, parses back equal, and answers a video section of the offer with a VP8 payload type it listed.
func checkSIPVideoAnswer(to offer: SessionDescription, audioAnswer: SessionDescription) {
    guard let video = SIPVideoAnswerer(port: 4002).answer(offer) else { return }
    let spliced = SIPVideoAnswerer.splice(video, into: audioAnswer)
    let text = spliced.serialized()
    let reparsed = try? SessionDescription(parsing: text, limits: reparseLimits)
    fuzzRequire(reparsed == spliced, "SIP video answer does not parse back equal\n--- answer ---\n\(text)")
    fuzzRequire(spliced.media.count == offer.media.count, "video answer m= count differs from the offer's")
    fuzzRequire(offer.media.indices.contains(video.index) && offer.media[video.index].kind == .video
                    && offer.media[video.index].payloads.contains { $0.payloadType == video.payloadType },
                "video answer does not answer a VP8 payload of an offered video section")
}
