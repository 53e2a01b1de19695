/// What an inbound datagram on the shared ICE component carries, from its first bytes (RFC 7983 §7,
/// RFC 5761 §4 for telling RTCP from RTP).
public enum DatagramClass: Hashable, Sendable {
    /// First byte 0...3 (libnice consumes these itself).
    case stun
    /// First byte 16...19.
    case zrtp
    /// First byte 20...63.
    case dtls
    /// First byte 64...79.
    case turnChannel
    /// First byte 128...191 and second byte outside 192...223.
    case rtp
    /// First byte 128...191 and second byte (packet type) 192...223.
    case rtcp
    /// Empty, or a first byte no protocol claims.
    case unknown

    public init(classifying bytes: ArraySlice<UInt8>) {
        guard let first = bytes.first else {
            self = .unknown
            return
        }
        switch first {
        case 0...3: self = .stun
        case 16...19: self = .zrtp
        case 20...63: self = .dtls
        case 64...79: self = .turnChannel
        case 128...191:
            let second = bytes.dropFirst().first
            self = second.map { (192...223).contains($0) } == true ? .rtcp : .rtp
        default: self = .unknown
        }
    }

    public init(classifying bytes: [UInt8]) {
        self.init(classifying: bytes[...])
    }
}
