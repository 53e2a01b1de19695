/// An RTCP packet this module does not decode (APP, XR, TWCC, other feedback formats), kept verbatim
/// so it can be forwarded or logged (RFC 3550 §6.4: unknown types are ignored, not fatal).
public struct UnknownRTCPPacket: Hashable, Sendable {
    /// The 5-bit count or feedback-format field of the common header.
    public var countOrFormat: UInt8
    public var packetType: UInt8
    /// The body after the 4-byte common header, padding removed.
    public var body: [UInt8]

    public init(countOrFormat: UInt8, packetType: UInt8, body: [UInt8]) {
        self.countOrFormat = countOrFormat
        self.packetType = packetType
        self.body = body
    }

    func serializedBody() throws(RTCPError) -> (count: Int, bytes: [UInt8]) {
        guard countOrFormat <= 31 else { throw .fieldOutOfRange("count") }
        guard body.count % 4 == 0 else { throw .unalignedPayload(bytes: body.count) }
        return (Int(countOrFormat), body)
    }
}
