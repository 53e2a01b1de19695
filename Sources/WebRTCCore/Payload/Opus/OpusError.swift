/// Why bytes are not a well-formed Opus packet (RFC 6716 §3.4 requirements R1–R7).
public enum OpusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// R1: a packet has at least the TOC byte.
    case emptyPacket
    /// R2: no frame may exceed 1275 bytes.
    case frameTooLarge(Int)
    /// R3: code 1 needs an odd total length (two equal frames after the TOC).
    case unequalFrames(length: Int)
    /// R4/R7: a frame length (or the length bytes themselves) runs past the packet.
    case frameLengthOverrun
    /// R5: code 3 needs 1...48 frames and at most 120 ms in total.
    case invalidFrameCount(Int)
    case durationTooLong(samples: Int)
    /// The padding length runs past the packet.
    case paddingOverflow
    /// R6: code 3 CBR needs the data to split evenly into M frames.
    case unevenConstantBitrate(dataLength: Int, frames: Int)

    public var description: String {
        switch self {
        case .emptyPacket: "Opus packet is empty"
        case let .frameTooLarge(size): "Opus frame of \(size) bytes exceeds 1275"
        case let .unequalFrames(length): "Opus code 1 packet of \(length) bytes cannot hold two equal frames"
        case .frameLengthOverrun: "Opus frame length runs past the packet"
        case let .invalidFrameCount(count): "Opus code 3 frame count \(count) is not 1...48"
        case let .durationTooLong(samples): "Opus packet lasts \(samples) samples at 48 kHz, above 120 ms"
        case .paddingOverflow: "Opus padding runs past the packet"
        case let .unevenConstantBitrate(length, frames): "\(length) bytes do not split into \(frames) equal frames"
        }
    }
}
