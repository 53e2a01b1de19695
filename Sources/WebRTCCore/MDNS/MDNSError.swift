/// Why a multicast DNS name or message was not usable. Every case names what was wrong, so a log line says
/// which responder sent garbage without dumping the datagram.
public enum MDNSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message ended inside the field named.
    case truncated(field: String)
    /// A compression pointer pointed forward or at itself, or names nested deeper than RFC 1035 allows.
    case badCompression(offset: Int)
    /// A label or a whole name over RFC 1035 §2.3.4's limits (63 and 255 bytes).
    case nameTooLong
    /// A label type RFC 6891 reserves or deprecated (`01` and `10` in the top bits).
    case unsupportedLabelType(UInt8)
    /// The text is not a host name we may query: `.local`, letters, digits and hyphens (RFC 6762 §3, §16).
    case notALocalName(String)

    public var description: String {
        switch self {
        case .truncated(let field): "mDNS message truncated in \(field)"
        case .badCompression(let offset): "mDNS name compression loops or points forward at byte \(offset)"
        case .nameTooLong: "mDNS name longer than RFC 1035 allows"
        case .unsupportedLabelType(let type): "mDNS label type 0x\(String(type, radix: 16)) is not supported"
        case .notALocalName(let text): "\"\(text.prefix(80))\" is not a .local host name"
        }
    }
}
