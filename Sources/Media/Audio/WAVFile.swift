import IntercomPlatform

/// 16-bit PCM WAV (RIFF `WAVE` with `fmt ` and `data` chunks), mono or stereo: test fixtures, recordings
/// of what the device heard, and prompts to play.
public struct WAVFile: Sendable, Equatable {
    static let pcmFormat: UInt16 = 1
    static let extensibleFormat: UInt16 = 0xFFFE
    /// Largest file `read` accepts (about 10 minutes of 48 kHz stereo).
    public static let defaultReadLimit = 128 << 20

    public var sampleRate: Int
    public var channels: Int
    /// Interleaved samples.
    public var samples: [Int16]

    public init(sampleRate: Int, channels: Int, samples: [Int16]) {
        precondition((1...2).contains(channels) && sampleRate > 0, "16-bit PCM WAV is mono or stereo")
        precondition(samples.count % channels == 0, "interleaved samples come in whole sample frames")
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    /// Parses a whole file. Unknown chunks (`LIST`, `fact`, …) are skipped.
    public init(parsing bytes: [UInt8]) throws(WAVError) {
        guard bytes.count >= 12, Self.fourCC(bytes, 0) == "RIFF", Self.fourCC(bytes, 8) == "WAVE" else {
            throw .notRIFFWAVE
        }
        var format: (sampleRate: Int, channels: Int, blockAlign: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = Self.fourCC(bytes, offset)
            let size = Int(Self.uint32(bytes, offset + 4))
            let body = offset + 8
            guard size <= bytes.count - body else {
                throw .truncatedChunk(id: id, declared: size, available: bytes.count - body)
            }
            switch id {
            case "fmt ":
                format = try Self.parseFormat(bytes[body..<body + size])
            case "data":
                guard let format else { throw .missingFormatChunk }
                guard size % format.blockAlign == 0 else {
                    throw .partialSampleFrame(dataBytes: size, blockAlign: format.blockAlign)
                }
                let samples = stride(from: body, to: body + size, by: 2).map {
                    Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
                }
                self.init(sampleRate: format.sampleRate, channels: format.channels, samples: samples)
                return
            default:
                break
            }
            offset = body + size + (size & 1)  // chunks are padded to an even length
        }
        throw format == nil ? .missingFormatChunk : .missingDataChunk
    }

    /// The canonical 44-byte-header file.
    public func encoded() -> [UInt8] {
        let dataBytes = samples.count * 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + dataBytes)
        bytes += Array("RIFF".utf8) + Self.littleEndian(UInt32(36 + dataBytes)) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + Self.littleEndian(UInt32(16))
        bytes += Self.littleEndian(Self.pcmFormat) + Self.littleEndian(UInt16(channels))
        bytes += Self.littleEndian(UInt32(sampleRate)) + Self.littleEndian(UInt32(sampleRate * channels * 2))
        bytes += Self.littleEndian(UInt16(channels * 2)) + Self.littleEndian(UInt16(16))
        bytes += Array("data".utf8) + Self.littleEndian(UInt32(dataBytes))
        for sample in samples { bytes += Self.littleEndian(UInt16(bitPattern: sample)) }
        return bytes
    }

    public static func read(from path: String, limit: Int = defaultReadLimit) throws(WAVError) -> WAVFile {
        let bytes: [UInt8]
        do { bytes = try AtomicFile.read(path, limit: limit) } catch { throw .system(error) }
        return try WAVFile(parsing: bytes)
    }

    /// Writes atomically (temporary file, fsync, rename).
    public func write(to path: String) throws(WAVError) {
        do { try AtomicFile.write(encoded(), to: path, permissions: 0o644) } catch { throw .system(error) }
    }

    // MARK: - Parsing helpers

    private static func parseFormat(
        _ chunk: ArraySlice<UInt8>
    ) throws(WAVError) -> (sampleRate: Int, channels: Int, blockAlign: Int) {
        let bytes = Array(chunk)
        guard bytes.count >= 16 else { throw .malformedFormatChunk(size: bytes.count) }
        var formatTag = uint16(bytes, 0)
        let channels = Int(uint16(bytes, 2))
        let sampleRate = Int(uint32(bytes, 4))
        let byteRate = Int(uint32(bytes, 8))
        let blockAlign = Int(uint16(bytes, 12))
        let bitsPerSample = Int(uint16(bytes, 14))
        if formatTag == extensibleFormat, bytes.count >= 40 {
            formatTag = uint16(bytes, 24)  // the sub-format GUID starts with the format code
        }
        guard formatTag == pcmFormat else { throw .unsupportedFormat("format code 0x\(String(formatTag, radix: 16))") }
        guard bitsPerSample == 16 else { throw .unsupportedFormat("\(bitsPerSample) bits per sample") }
        guard (1...2).contains(channels) else { throw .unsupportedFormat("\(channels) channels") }
        guard (1...768_000).contains(sampleRate) else { throw .unsupportedFormat("sample rate \(sampleRate) Hz") }
        guard blockAlign == channels * 2, byteRate == sampleRate * blockAlign else {
            throw .unsupportedFormat("inconsistent block align \(blockAlign) / byte rate \(byteRate)")
        }
        return (sampleRate, channels, blockAlign)
    }

    private static func fourCC(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4].map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    private static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
