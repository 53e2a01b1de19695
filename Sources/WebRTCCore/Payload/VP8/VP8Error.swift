/// Why a VP8 RTP payload (RFC 7741) or frame header (RFC 6386 §9.1) is unusable, or a packetizer
/// setting is impossible.
public enum VP8Error: Error, Equatable, Sendable, CustomStringConvertible {
    case truncatedDescriptor(needed: Int, available: Int)
    /// A payload descriptor with no VP8 data after it.
    case emptyPayload
    case emptyFrame
    /// The packet size leaves no room for data after the RTP header and the 4-byte descriptor.
    case packetSizeTooSmall(maxPacketSize: Int, headerOverhead: Int)
    case frameTooLarge(bytes: Int, limit: Int)
    case truncatedFrameHeader(needed: Int, available: Int)
    /// A key frame whose start code is not `9d 01 2a`.
    case invalidStartCode
    case zeroDimension(width: UInt16, height: UInt16)
    /// The frame tag's first-partition size runs past the frame.
    case partitionOverrun(size: Int, available: Int)

    public var description: String {
        switch self {
        case let .truncatedDescriptor(needed, available):
            "VP8 payload descriptor needs \(needed) bytes, packet has \(available)"
        case .emptyPayload: "VP8 packet has a descriptor but no data"
        case .emptyFrame: "VP8 frame is empty"
        case let .packetSizeTooSmall(size, overhead):
            "packet size \(size) leaves no room after \(overhead) header bytes and the VP8 descriptor"
        case let .frameTooLarge(bytes, limit): "VP8 frame of \(bytes) bytes exceeds \(limit)"
        case let .truncatedFrameHeader(needed, available): "VP8 frame header needs \(needed) bytes, has \(available)"
        case .invalidStartCode: "VP8 key frame start code is not 9d 01 2a"
        case let .zeroDimension(width, height): "VP8 key frame is \(width)x\(height)"
        case let .partitionOverrun(size, available):
            "VP8 first partition of \(size) bytes, only \(available) follow the header"
        }
    }
}
