import FuzzSupport
import ParseWire

/// The backend wire decoders of both sides (reliability-test-matrix §(c) 9, 10): LiveQuery frames, session-signaling
/// frames and Parse query responses either decode or throw `ParseWireError`. A signaling frame that decodes
/// must re-encode to text that decodes to the same frame.
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
    _ = try? ParseResponseDecoder().decode(QueryResults<ActiveSessionRow>.self, status: 200, body: bytes)
    _ = try? ParseResponseDecoder().decode(UserResponse.self, status: 200, body: bytes)
    return 0
}
