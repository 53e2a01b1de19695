import IntercomTestSupport
import Media
import Testing

@Suite struct WAVFileTests {
    static func littleEndian32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// A RIFF file from raw chunks, for hand-made damaged inputs.
    static func riff(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var body = Array("WAVE".utf8)
        for (id, payload) in chunks {
            body += Array(id.utf8) + littleEndian32(UInt32(payload.count)) + payload
            if payload.count % 2 == 1 { body.append(0) }
        }
        return Array("RIFF".utf8) + littleEndian32(UInt32(body.count)) + body
    }

    static func fmt(tag: UInt16 = 1, channels: UInt16 = 1, rate: UInt32 = 48_000, bits: UInt16 = 16) -> [UInt8] {
        let blockAlign = channels * bits / 8
        return littleEndian16(tag) + littleEndian16(channels) + littleEndian32(rate)
            + littleEndian32(rate * UInt32(blockAlign)) + littleEndian16(blockAlign) + littleEndian16(bits)
    }

    @Test func monoAndStereoRoundTripThroughBytesAndFiles() throws {
        let directory = try TemporaryDirectory()
        var tone = ToneGenerator(frequency: 440, amplitude: 0.3, sampleRate: 16_000, channels: 2)
        let stereo = WAVFile(sampleRate: 16_000, channels: 2, samples: tone.next(frames: 800) + [.min, .max])
        let mono = WAVFile(sampleRate: 48_000, channels: 1, samples: [0, 1, -1, .max, .min])
        for (name, file) in [("stereo.wav", stereo), ("mono.wav", mono)] {
            let bytes = file.encoded()
            #expect(bytes.count == 44 + file.samples.count * 2)
            #expect(try WAVFile(parsing: bytes) == file)
            try file.write(to: directory.path(name))
            #expect(try WAVFile.read(from: directory.path(name)) == file)
        }
    }

    @Test func unknownChunksAreSkippedIncludingOddPadding() throws {
        let bytes = Self.riff([
            ("LIST", Array("INFOISFT".utf8) + [1, 2, 3]),  // odd length: one pad byte follows
            ("fmt ", Self.fmt()),
            ("fact", Self.littleEndian32(2)),
            ("data", [0x01, 0x00, 0xFF, 0xFF]),
        ])
        #expect(try WAVFile(parsing: bytes) == WAVFile(sampleRate: 48_000, channels: 1, samples: [1, -1]))
    }

    @Test func extensiblePCMIsAccepted() throws {
        var extensible = Self.fmt(tag: 0xFFFE, channels: 2)
        extensible += Self.littleEndian16(22) + Self.littleEndian16(16) + Self.littleEndian32(3)
        extensible += Self.littleEndian16(1) + [UInt8](repeating: 0, count: 14)  // KSDATAFORMAT_SUBTYPE_PCM
        let file = try WAVFile(parsing: Self.riff([("fmt ", extensible), ("data", [1, 0, 2, 0])]))
        #expect(file.channels == 2 && file.samples == [1, 2])
    }

    @Test(arguments: [
        ([UInt8](), WAVError.notRIFFWAVE),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8), .notRIFFWAVE),
        (WAVFileTests.riff([("data", [0, 0])]), .missingFormatChunk),
        (WAVFileTests.riff([("fmt ", WAVFileTests.fmt())]), .missingDataChunk),
        (WAVFileTests.riff([]), .missingFormatChunk),
        (WAVFileTests.riff([("fmt ", Array(WAVFileTests.fmt().prefix(14)))]), .malformedFormatChunk(size: 14)),
        (WAVFileTests.riff([("fmt ", WAVFileTests.fmt(bits: 8)), ("data", [0])]), .unsupportedFormat("8 bits per sample")),
        (WAVFileTests.riff([("fmt ", WAVFileTests.fmt(tag: 3, bits: 32)), ("data", [])]), .unsupportedFormat("format code 0x3")),
        (WAVFileTests.riff([("fmt ", WAVFileTests.fmt(channels: 3)), ("data", [])]), .unsupportedFormat("3 channels")),
        (WAVFileTests.riff([("fmt ", WAVFileTests.fmt(channels: 2)), ("data", [0, 0, 0, 0, 0, 0])]), .partialSampleFrame(dataBytes: 6, blockAlign: 4)),
    ])
    func badFilesAreRejectedWithTheReason(bytes: [UInt8], expected: WAVError) {
        #expect(throws: expected) { try WAVFile(parsing: bytes) }
    }

    @Test func aChunkLongerThanTheFileIsReportedAsTruncated() {
        var bytes = Self.riff([("fmt ", Self.fmt()), ("data", [1, 0, 2, 0, 3, 0])])
        bytes.removeLast(4)
        #expect(throws: WAVError.truncatedChunk(id: "data", declared: 6, available: 2)) { try WAVFile(parsing: bytes) }
    }

    @Test func inconsistentRatesAreRejected() {
        var format = Self.fmt()
        format[8] ^= 0x01  // byte rate no longer matches sample rate × block align
        #expect(throws: WAVError.unsupportedFormat("inconsistent block align 2 / byte rate 96001")) {
            try WAVFile(parsing: Self.riff([("fmt ", format), ("data", [])]))
        }
    }

    @Test func aMissingFileIsASystemError() {
        let error = #expect(throws: WAVError.self) { try WAVFile.read(from: "/nonexistent/x.wav") }
        guard case .system(let system) = error else {
            Issue.record("expected a system error, got \(String(describing: error))")
            return
        }
        #expect(system.call == "open")
    }

    @Test func randomBytesNeverCrashTheParser() {
        var generator = SplitMix64(seed: 99)
        let valid = WAVFile(sampleRate: 8000, channels: 1, samples: [1, 2, 3, 4]).encoded()
        for round in 0..<3000 {
            var bytes = valid
            if round.isMultiple(of: 3) {
                bytes = (0..<Int.random(in: 0..<80, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            if let file = try? WAVFile(parsing: bytes) {
                #expect(file.samples.count % file.channels == 0)
            }
        }
    }
}
