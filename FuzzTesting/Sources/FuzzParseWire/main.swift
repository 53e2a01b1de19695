import Foundation
import FuzzSupport
import ParseWire

/// The backend wire decoders of both sides (reliability-test-matrix §(c) 9, 10): LiveQuery frames, session-signaling
/// frames and Parse query responses either decode or throw `ParseWireError`. A signaling frame that decodes
/// must re-encode to text that decodes to the same frame; any JSON value that parses must write out
/// (`jsonText`) as the bytes `JSONEncoder` writes and parse back to itself. A response's `Date` header (the server's clock)
/// parses to a date no earlier than 1970, or is refused.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParseWire(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? LiveQueryServerFrame.decode(text)
    // The server's side of the same sockets: what a hostile client may send it.
    _ = try? LiveQueryRequest.parse(text)
    _ = try? SignalingInbound.parse(text)
    if let frame = try? SignalingFrame.decode(text) {
        let again = try? SignalingFrame.decode(frame.text)
        fuzzRequire(again == frame, "signaling frame does not survive a round trip: \(frame.text)")
    }
    if let value = try? JSONValue.parse(bytes, limit: 1 << 20) {
        let written = value.jsonBytes()
        fuzzRequire((try? JSONValue.parse(written, limit: .max)) == value, "JSON does not survive a round trip: \(text)")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        fuzzRequire((try? encoder.encode(value)).map(Array.init) == written, "jsonText differs from JSONEncoder: \(text)")
    }
    _ = try? ParseResponseDecoder().decode(QueryResults<ActiveSessionRow>.self, status: 200, body: bytes)
    _ = try? ParseResponseDecoder().decode(UserResponse.self, status: 200, body: bytes)
    if let date = ServerClockEstimate.parseHTTPDate(text) {
        fuzzRequire(date.timeIntervalSince1970 >= 0, "Date header parsed before 1970: \(text)")
    }
    return 0
}
