import FuzzSupport
import SIPCore

/// Limits for re-reading serialized output: compact header names expand and Content-Length is added.
let reparseLimits = SIPLimits(maxMessageBytes: 1 << 20, maxHeaderCount: 1 << 16, maxHeaderBytes: 1 << 20)

/// SIP parser, stream framer and header views: any bytes parse or throw `SIPError`; a parsed message
/// serializes to bytes that parse back to the same start line, headers (Content-Length aside) and body; the
/// framer, fed the same bytes in two pieces, never buffers more than its limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSIP(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    if let message = try? SIPMessage(datagram: bytes) {
        checkRoundTrip(message)
        exerciseViews(message)
    }
    var framer = SIPStreamFramer()
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    if let first = try? framer.append(bytes[..<cut]), let second = try? framer.append(bytes[cut...]) {
        fuzzRequire(first.count + second.count <= bytes.count, "framer made more messages than bytes")
        fuzzRequire(framer.bufferedByteCount <= framer.limits.maxMessageBytes, "framer buffered past its limit")
    }
    _ = try? DigestChallenge(parsing: String(decoding: bytes, as: UTF8.self))
    return 0
}

func checkRoundTrip(_ message: SIPMessage) {
    let wire = message.serialized()
    let reparsed: SIPMessage
    do {
        reparsed = try SIPMessage(datagram: wire, limits: reparseLimits)
    } catch {
        fuzzFail("serialized SIP does not parse: \(error)\n--- serialized ---\n\(String(decoding: wire, as: UTF8.self))")
    }
    let withoutLength = { (headers: [SIPHeader]) in headers.filter { $0.name != SIPHeaderName.contentLength } }
    fuzzRequire(
        reparsed.startLine == message.startLine && reparsed.body == message.body
            && withoutLength(reparsed.headers) == withoutLength(message.headers),
        "SIP round trip changed the message\n--- serialized ---\n\(String(decoding: wire, as: UTF8.self))")
}

/// The typed views must throw, never trap, on whatever the headers hold.
func exerciseViews(_ message: SIPMessage) {
    _ = try? message.validateRequest()
    _ = try? message.validateResponse()
    _ = try? message.vias()
    _ = try? message.contacts()
    _ = try? message.routeSet(SIPHeaderName.recordRoute)
    _ = try? message.expires()
    _ = try? TransactionKey(serverRequest: message)
    _ = try? TransactionKey(clientResponse: message)
    for value in message.values(SIPHeaderName.wwwAuthenticate) { _ = try? DigestChallenge(parsing: value) }
}
