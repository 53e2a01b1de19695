import FuzzSupport
import WebRTCCore

/// Limits for re-reading serialized output: CRLF line ends and normalized lines may make it longer than the input.
let reparseLimits = SDPLimits(
    maxInputBytes: 1 << 20, maxLineBytes: 1 << 20, maxMediaSections: SDPLimits.standard.maxMediaSections)

/// SDP parser (reliability-test-matrix §(c) 1): any bytes parse or throw `SDPError`; a parsed description
/// serializes to text that parses back to an equal description.
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
    return 0
}
