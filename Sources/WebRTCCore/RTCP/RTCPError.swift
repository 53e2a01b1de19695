/// Why bytes are not a valid compound RTCP packet (RFC 3550 §6.4, RFC 4585 §6, RFC 5104 §4.3.1,
/// draft-alvestrand-rmcat-remb §2.2), or why a packet cannot be serialized.
public enum RTCPError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated(needed: Int, available: Int)
    case unsupportedVersion(UInt8)
    /// A length field of 0: no RTCP packet type fits in the 4-byte header alone.
    case zeroLength(packetType: UInt8)
    /// The length field runs past the end of the datagram.
    case lengthOverrun(declaredBytes: Int, available: Int)
    /// Padding count 0, not a multiple of 4, or larger than the packet body.
    case invalidPadding(count: Int, available: Int)
    /// RFC 3550 §6.4.1: only the last packet of a compound may be padded.
    case paddingNotLast
    /// RC/SC says more report blocks or sources than the body holds.
    case countOverrun(packetType: UInt8, count: Int, available: Int)
    /// An SDES chunk ends without its null item.
    case sdesMissingTerminator
    case sdesItemOverrun
    case byeReasonOverrun
    /// A NACK or FIR with no feedback control information.
    case emptyFeedback(packetType: UInt8, format: UInt8)
    /// FCI whose size is not a whole number of entries.
    case malformedFeedback(packetType: UInt8, format: UInt8)
    /// REMB's "Num SSRC" disagrees with the bytes that follow.
    case rembSSRCCountMismatch(declared: Int, available: Int)
    /// Serialization: more than 31 report blocks, SDES chunks or BYE sources, or over 255 REMB SSRCs.
    case tooManyItems(Int)
    /// Serialization: an SDES item or BYE reason over 255 bytes.
    case itemTooLong(Int)
    /// Serialization: SDES item type 0 is the terminator, not an item.
    case invalidItemType
    /// Serialization: the body does not fit a 16-bit word count.
    case packetTooLarge(bytes: Int)
    /// Serialization: the body of an opaque packet is not whole 32-bit words.
    case unalignedPayload(bytes: Int)
    /// Serialization: a field wider than its wire width (REMB exponent over 63, mantissa over 18 bits,
    /// a format over 31).
    case fieldOutOfRange(String)

    public var description: String {
        switch self {
        case let .truncated(needed, available): "RTCP truncated: needs \(needed) bytes, has \(available)"
        case let .unsupportedVersion(version): "RTCP version \(version), expected 2"
        case let .zeroLength(type): "RTCP packet type \(type) has length 0"
        case let .lengthOverrun(declared, available): "RTCP length \(declared) bytes, only \(available) remain"
        case let .invalidPadding(count, available): "RTCP padding count \(count) invalid with \(available) bytes"
        case .paddingNotLast: "RTCP padding on a packet that is not last in the compound"
        case let .countOverrun(type, count, available):
            "RTCP packet type \(type) counts \(count) items, only \(available) bytes follow"
        case .sdesMissingTerminator: "SDES chunk has no terminating null item"
        case .sdesItemOverrun: "SDES item runs past the packet"
        case .byeReasonOverrun: "BYE reason runs past the packet"
        case let .emptyFeedback(type, format): "RTCP feedback \(type)/\(format) has no FCI"
        case let .malformedFeedback(type, format): "RTCP feedback \(type)/\(format) FCI has a partial entry"
        case let .rembSSRCCountMismatch(declared, available):
            "REMB declares \(declared) SSRCs, \(available) bytes follow"
        case let .tooManyItems(count): "\(count) items do not fit the RTCP count field"
        case let .itemTooLong(length): "item of \(length) bytes exceeds 255"
        case .invalidItemType: "SDES item type 0 is reserved for the terminator"
        case let .packetTooLarge(bytes): "RTCP body of \(bytes) bytes exceeds the length field"
        case let .unalignedPayload(bytes): "RTCP body of \(bytes) bytes is not whole 32-bit words"
        case let .fieldOutOfRange(field): "RTCP field \(field) out of range"
        }
    }
}
