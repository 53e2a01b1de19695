/// BYE, packet type 203 (RFC 3550 §6.6): these sources are leaving, optionally with a reason.
public struct Goodbye: Hashable, Sendable {
    public var ssrcs: [UInt32]
    public var reason: String?

    public init(ssrcs: [UInt32], reason: String? = nil) {
        self.ssrcs = ssrcs
        self.reason = reason
    }

    static let packetType: UInt8 = 203

    init(count: Int, body: inout ByteReader) throws(RTCPError) {
        guard count * 4 <= body.remaining else {
            throw .countOverrun(packetType: Self.packetType, count: count, available: body.remaining)
        }
        ssrcs = []
        for _ in 0..<count { ssrcs.append(try body.readUInt32(or: RTCPError.truncated(needed: 4, available: 0))) }
        reason = nil
        // The reason is optional; the rest of the body is its length byte, text and zero padding.
        if let length = body.peek(), length > 0 {
            try body.skip(1, or: RTCPError.byeReasonOverrun)
            let text = try body.readBytes(Int(length), or: RTCPError.byeReasonOverrun)
            reason = String(decoding: text, as: UTF8.self)
        }
    }

    func body() throws(RTCPError) -> (count: Int, bytes: [UInt8]) {
        guard ssrcs.count <= 31 else { throw .tooManyItems(ssrcs.count) }
        var bytes: [UInt8] = []
        for ssrc in ssrcs { bytes.appendUInt32(ssrc) }
        if let reason, !reason.isEmpty {
            let text = Array(reason.utf8)
            guard text.count <= 255 else { throw .itemTooLong(text.count) }
            bytes.append(UInt8(text.count))
            bytes += text
            bytes.padToWordBoundary()
        }
        return (ssrcs.count, bytes)
    }
}
