/// Why bytes are not an RTP packet (RFC 3550 §5.1, RFC 8285), or why a packet cannot be serialized.
public enum RTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer bytes than the fixed header, CSRC list or extension header needs.
    case truncated(needed: Int, available: Int)
    case unsupportedVersion(UInt8)
    /// The extension's length field runs past the end of the packet.
    case extensionOverrun(declaredBytes: Int, available: Int)
    /// An RFC 8285 element's length runs past the end of the extension block.
    case extensionElementOverrun(id: UInt8)
    /// The P bit is set but the count byte is 0 or larger than what follows the header.
    case invalidPadding(count: Int, available: Int)
    case payloadTypeOutOfRange(UInt8)
    case tooManyCSRCs(Int)
    /// One-byte elements need id 1...14 and 1...16 bytes; two-byte ones id 1...255 and 0...255 bytes.
    case invalidExtensionElement(id: UInt8, length: Int)
    /// RFC 3550 §5.3.1 extension data is a whole number of 32-bit words, at most 65535 of them.
    case invalidExtensionLength(Int)

    public var description: String {
        switch self {
        case let .truncated(needed, available): "RTP packet truncated: needs \(needed) bytes, has \(available)"
        case let .unsupportedVersion(version): "RTP version \(version), expected 2"
        case let .extensionOverrun(declared, available):
            "RTP header extension declares \(declared) bytes, only \(available) remain"
        case let .extensionElementOverrun(id): "RTP header extension element \(id) runs past the extension"
        case let .invalidPadding(count, available): "RTP padding count \(count) invalid with \(available) bytes"
        case let .payloadTypeOutOfRange(pt): "RTP payload type \(pt) is above 127"
        case let .tooManyCSRCs(count): "\(count) CSRCs, at most 15 fit"
        case let .invalidExtensionElement(id, length): "RTP header extension element id \(id) length \(length) invalid"
        case let .invalidExtensionLength(length): "RTP header extension data of \(length) bytes is not whole words"
        }
    }
}
