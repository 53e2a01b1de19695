/// The uncompressed header at the start of every VP8 frame (RFC 6386 §9.1; RFC 7741 §4.3 repeats it):
/// a 3-byte little-endian frame tag, and for key frames a start code and the dimensions.
public struct VP8FrameHeader: Hashable, Sendable {
    public var isKeyFrame: Bool
    /// 3 bits (0 for the bicubic profile libvpx uses).
    public var version: UInt8
    public var showFrame: Bool
    /// Size of the first partition in bytes (19 bits).
    public var firstPartitionSize: Int
    /// Key frames only: 14-bit width and height and their 2-bit upscaling codes.
    public var width: UInt16?
    public var height: UInt16?
    public var horizontalScale: UInt8?
    public var verticalScale: UInt8?

    static let startCode: [UInt8] = [0x9D, 0x01, 0x2A]
    static let keyFrameHeaderLength = 10
    static let interFrameHeaderLength = 3

    /// Parses the header of a complete frame (or the first packet's data, for key-frame detection).
    /// `requireWholePartition` checks that the first partition fits in `frame`.
    public init(parsing frame: ArraySlice<UInt8>, requireWholePartition: Bool = true) throws(VP8Error) {
        var reader = ByteReader(frame)
        let truncated = { (needed: Int) in VP8Error.truncatedFrameHeader(needed: needed, available: frame.count) }
        let tag = try reader.readUInt24(or: truncated(Self.interFrameHeaderLength))
        // The tag is little-endian: byte 0 holds the low bits.
        let raw = (tag >> 16) | (tag & 0x00FF00) | ((tag & 0xFF) << 16)
        isKeyFrame = raw & 0x01 == 0
        version = UInt8((raw >> 1) & 0x07)
        showFrame = raw & 0x10 != 0
        firstPartitionSize = Int(raw >> 5)
        if isKeyFrame {
            let code = try reader.readBytes(3, or: truncated(Self.keyFrameHeaderLength))
            guard code.elementsEqual(Self.startCode) else { throw .invalidStartCode }
            let widthField = try reader.readUInt16(or: truncated(Self.keyFrameHeaderLength)).byteSwapped
            let heightField = try reader.readUInt16(or: truncated(Self.keyFrameHeaderLength)).byteSwapped
            width = widthField & 0x3FFF
            height = heightField & 0x3FFF
            horizontalScale = UInt8(widthField >> 14)
            verticalScale = UInt8(heightField >> 14)
            guard width != 0, height != 0 else { throw .zeroDimension(width: width ?? 0, height: height ?? 0) }
        }
        if requireWholePartition, firstPartitionSize > reader.remaining {
            throw .partitionOverrun(size: firstPartitionSize, available: reader.remaining)
        }
    }
}
