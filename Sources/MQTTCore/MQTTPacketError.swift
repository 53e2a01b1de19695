/// Why bytes from the broker are not a valid MQTT 3.1.1 packet. A decoder never traps on input: every
/// malformed, truncated or oversized packet ends as one of these, and the connection is closed (§4.8).
public enum MQTTPacketError: Error, Equatable, Sendable {
    /// The Remaining Length field has more than four bytes (§2.2.3).
    case malformedRemainingLength
    /// The packet announces `length` bytes, more than the configured limit.
    case packetTooLarge(length: Int, limit: Int)
    /// The packet ended inside `field`.
    case truncated(field: String)
    /// Bytes were left over after the last field of a packet of this type.
    case trailingBytes(packetType: UInt8, count: Int)
    /// Packet type 0 or 15 are reserved (§2.2.1).
    case reservedPacketType(UInt8)
    /// The fixed header's flags are wrong for this type (§2.2.2), e.g. SUBSCRIBE without 0b0010.
    case invalidFlags(packetType: UInt8, flags: UInt8)
    /// A string field is not well-formed UTF-8 or contains U+0000 (§1.5.3).
    case invalidString(field: String)
    /// QoS 3 is reserved (§3.3.1.2).
    case invalidQoS(UInt8)
    /// A field breaks a rule of the packet's section, named in `rule`.
    case protocolViolation(String)
}
