/// A validated Opus packet (RFC 6716 §3): its TOC byte (§3.1) and frame layout (§3.2). Checking this
/// before libopus turns garbage into a typed error instead of a decoder error code.
public struct OpusPacketInfo: Hashable, Sendable {
    /// TOC `config`, 0...31 (RFC 6716 Table 2).
    public var configuration: UInt8
    public var isStereo: Bool
    /// TOC `c`: 0 one frame, 1 two equal frames, 2 two frames, 3 an arbitrary number.
    public var frameCountCode: UInt8
    /// Each frame's compressed size; 0 marks a DTX or lost frame.
    public var frameSizes: [Int]
    /// Code 3 padding bytes, including the padding-length bytes.
    public var paddingLength: Int

    public enum Mode: Hashable, Sendable { case silk, hybrid, celt }
    public enum Bandwidth: Hashable, Sendable { case narrowband, mediumband, wideband, superWideband, fullband }

    static let maxFrameSize = 1275
    static let maxDurationSamples = 5760  // 120 ms at 48 kHz

    public var mode: Mode {
        switch configuration {
        case 0...11: .silk
        case 12...15: .hybrid
        default: .celt
        }
    }

    public var bandwidth: Bandwidth {
        switch configuration {
        case 0...3, 16...19: .narrowband
        case 4...7: .mediumband
        case 8...11, 20...23: .wideband
        case 12...13, 24...27: .superWideband
        default: .fullband
        }
    }

    /// Samples per frame at 48 kHz (2.5 ms = 120 … 60 ms = 2880).
    public var samplesPerFrame: Int { Self.samplesPerFrame(configuration: configuration) }

    /// Samples of the whole packet at 48 kHz: the RTP timestamp advance (RFC 7587 §4.1).
    public var durationSamples: Int { samplesPerFrame * frameSizes.count }

    static func samplesPerFrame(configuration: UInt8) -> Int {
        let index = Int(configuration & 0x03)
        switch configuration {
        case 0...11: return [480, 960, 1920, 2880][index]
        case 12...15: return [480, 960][index & 0x01]
        default: return [120, 240, 480, 960][index]
        }
    }

    /// Checks one Opus packet (the whole RTP payload, RFC 7587 §4.2) against RFC 6716 §3.4.
    public init(validating packet: ArraySlice<UInt8>) throws(OpusError) {
        var reader = ByteReader(packet)
        let toc = try reader.readUInt8(or: OpusError.emptyPacket)
        configuration = toc >> 3
        isStereo = toc & 0x04 != 0
        frameCountCode = toc & 0x03
        paddingLength = 0
        switch frameCountCode {
        case 0:
            frameSizes = [reader.remaining]
        case 1:
            guard reader.remaining % 2 == 0 else { throw .unequalFrames(length: packet.count) }
            frameSizes = [reader.remaining / 2, reader.remaining / 2]
        case 2:
            let first = try Self.readFrameLength(&reader)
            guard first <= reader.remaining else { throw .frameLengthOverrun }
            frameSizes = [first, reader.remaining - first]
        default:
            (frameSizes, paddingLength) = try Self.readCode3(&reader, configuration: configuration)
        }
        if let large = frameSizes.first(where: { $0 > Self.maxFrameSize }) { throw .frameTooLarge(large) }
    }

    public init(validating packet: [UInt8]) throws(OpusError) {
        try self.init(validating: packet[...])
    }

    /// RFC 6716 §3.2.5: frame-count byte `v|p|M`, optional padding length, then CBR or VBR frames.
    private static func readCode3(_ reader: inout ByteReader, configuration: UInt8) throws(OpusError)
        -> (sizes: [Int], padding: Int)
    {
        let header = try reader.readUInt8(or: OpusError.frameLengthOverrun)
        let count = Int(header & 0x3F)
        guard (1...48).contains(count) else { throw .invalidFrameCount(count) }
        let duration = count * samplesPerFrame(configuration: configuration)
        guard duration <= maxDurationSamples else { throw .durationTooLong(samples: duration) }
        var lengthBytes = 0
        var trailing = 0
        if header & 0x40 != 0 {
            // A 255 means 254 padding bytes and another length byte; the packet length bounds the loop.
            while true {
                let byte = Int(try reader.readUInt8(or: OpusError.paddingOverflow))
                lengthBytes += 1
                trailing += byte == 255 ? 254 : byte
                if byte != 255 { break }
            }
        }
        var sizes: [Int] = []
        if header & 0x80 != 0 {
            for _ in 0..<(count - 1) { sizes.append(try readFrameLength(&reader)) }
            guard trailing <= reader.remaining else { throw .paddingOverflow }
            let explicit = sizes.reduce(0, +)
            guard explicit <= reader.remaining - trailing else { throw .frameLengthOverrun }
            sizes.append(reader.remaining - trailing - explicit)
        } else {
            guard trailing <= reader.remaining else { throw .paddingOverflow }
            let data = reader.remaining - trailing
            guard data % count == 0 else { throw .unevenConstantBitrate(dataLength: data, frames: count) }
            sizes = Array(repeating: data / count, count: count)
        }
        return (sizes, lengthBytes + trailing)
    }

    /// RFC 6716 §3.2.1: one byte 0...251, or two bytes `first + 4 * second` when first ≥ 252.
    private static func readFrameLength(_ reader: inout ByteReader) throws(OpusError) -> Int {
        let first = Int(try reader.readUInt8(or: OpusError.frameLengthOverrun))
        guard first >= 252 else { return first }
        let second = Int(try reader.readUInt8(or: OpusError.frameLengthOverrun))
        return first + 4 * second
    }
}
