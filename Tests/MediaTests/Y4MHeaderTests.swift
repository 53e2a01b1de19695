import Media
import IntercomTestSupport
import Testing

@Suite struct Y4MHeaderTests {
    static func parse(_ line: String) throws(Y4MError) -> Y4MStreamHeader {
        try Y4MStreamHeader(parsing: Array(line.utf8))
    }

    @Test func aTypicalFfmpegHeaderParses() throws {
        let header = try Self.parse("YUV4MPEG2 W640 H480 F30000:1001 Ip A1:1 C420jpeg XYSCSS=420JPEG")
        #expect(header.width == 640)
        #expect(header.height == 480)
        #expect(header.frameRate == FrameRate(30000, 1001))
        #expect(header.interlacing == "p")
        #expect(header.pixelAspect == Y4MStreamHeader.PixelAspect(numerator: 1, denominator: 1))
        #expect(header.colourspace == "420jpeg")
        #expect(header.frameByteCount == 640 * 480 * 3 / 2)
    }

    @Test(arguments: ["420jpeg", "420", "420paldv"])
    func every8Bit420ColourspaceIsAccepted(colourspace: String) throws {
        #expect(try Self.parse("YUV4MPEG2 W2 H2 C\(colourspace)").colourspace == colourspace)
    }

    @Test func aMissingColourspaceMeans420AndOtherParametersHaveDefaults() throws {
        let header = try Self.parse("YUV4MPEG2  W5 H3 ")
        #expect(header.colourspace == nil)
        #expect(header.frameRate == FrameRate(30))
        #expect(header.interlacing == nil)
        #expect(header.frameByteCount == 5 * 3 + 2 * 3 * 2)
    }

    @Test func serialisingAndParsingAgreeFromAHeaderWeWrote() throws {
        var header = Y4MStreamHeader(width: 320, height: 240, frameRate: FrameRate(25))
        header.pixelAspect = .init(numerator: 0, denominator: 0)
        var line = header.serialized()
        #expect(line.removeLast() == UInt8(ascii: "\n"))
        #expect(try Y4MStreamHeader(parsing: line) == header)
    }

    @Test(arguments: [
        ("YUV4MPEG W640 H480", Y4MError.notY4M),
        ("", .notY4M),
        ("yuv4mpeg2 W640 H480", .notY4M),
        ("YUV4MPEG2 H480", .missingParameter("W")),
        ("YUV4MPEG2 W640", .missingParameter("H")),
        ("YUV4MPEG2 W0 H480", .invalidParameter(name: "W", value: "0")),
        ("YUV4MPEG2 W-640 H480", .invalidParameter(name: "W", value: "-640")),
        ("YUV4MPEG2 W640 H99999", .invalidParameter(name: "H", value: "99999")),
        ("YUV4MPEG2 W640 Habc", .invalidParameter(name: "H", value: "abc")),
        ("YUV4MPEG2 W640 H480 F30:0", .invalidParameter(name: "F", value: "30:0")),
        ("YUV4MPEG2 W640 H480 F30", .invalidParameter(name: "F", value: "30")),
        ("YUV4MPEG2 W640 H480 F99999999999999999999:1", .invalidParameter(name: "F", value: "99999999999999999999:1")),
        ("YUV4MPEG2 W640 H480 Ix", .invalidParameter(name: "I", value: "x")),
        ("YUV4MPEG2 W640 H480 A1", .invalidParameter(name: "A", value: "1")),
        ("YUV4MPEG2 W640 H480 C422", .unsupportedColourspace("422")),
        ("YUV4MPEG2 W640 H480 C420p10", .unsupportedColourspace("420p10")),
        ("YUV4MPEG2 W640 H480 Cmono", .unsupportedColourspace("mono")),
    ])
    func badHeadersAreRejectedWithTheReason(line: String, expected: Y4MError) {
        #expect(throws: expected) { try Self.parse(line) }
    }

    @Test func theErrorTextNamesTheProblem() {
        #expect("\(Y4MError.unsupportedColourspace("422"))".contains("C422 is not supported"))
        #expect("\(Y4MError.truncatedFrame(expected: 10, got: 3))".contains("3 of 10 bytes"))
    }

    @Test func randomAndMutatedHeadersNeverCrash() {
        var generator = SplitMix64(seed: 42)
        let valid = Array("YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg".utf8)
        var accepted = 0
        for round in 0..<2000 {
            var line: [UInt8]
            if round.isMultiple(of: 2) {
                line = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                line = valid
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    line[Int.random(in: 0..<line.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            if let header = try? Y4MStreamHeader(parsing: line) {
                accepted += 1
                #expect((1...Y4MStreamHeader.maximumDimension).contains(header.width))
                #expect((1...Y4MStreamHeader.maximumDimension).contains(header.height))
            }
        }
        #expect(accepted > 0)  // some mutations only touch ignored parts and must still parse
    }
}
