import CTurboJPEG
import Media
import Testing

/// MJPEG → I420 through TurboJPEG: every subsampling a JPEG can carry lands as correct 4:2:0, and damaged
/// input is an error, never a crash or a half picture.
@Suite struct JPEGDecoderTests {
    static let subsamplings: [(name: String, value: Int32)] = [
        ("4:2:0", Int32(TJSAMP_420.rawValue)), ("4:2:2", Int32(TJSAMP_422.rawValue)),
        ("4:4:4", Int32(TJSAMP_444.rawValue)), ("4:4:0", Int32(TJSAMP_440.rawValue)),
        ("4:1:1", Int32(TJSAMP_411.rawValue)), ("gray", Int32(TJSAMP_GRAY.rawValue)),
    ]

    @Test(arguments: subsamplings.map(\.name))
    func colourBarsDecodeToTheirLumaAndChroma(subsampling name: String) throws {
        let value = Self.subsamplings.first { $0.name == name }!.value
        let (width, height) = (320, 240)
        let jpeg = ColourBarsJPEG.encode(width: width, height: height, subsampling: value)
        let decoder = try JPEGDecoder()
        let frame = try jpeg.withUnsafeBytes { bytes in try decoder.decode(bytes) }
        #expect(frame.width == width && frame.height == height)
        for bar in 0..<ColourBarsJPEG.colours.count {
            // The middle of each bar, away from the edges the DCT blurs.
            let x = (2 * bar + 1) * width / (2 * ColourBarsJPEG.colours.count)
            let luma = Double(frame.luma(x: x, y: height / 2))
            #expect(abs(luma - ColourBarsJPEG.expectedLuma(bar: bar)) < 4, "bar \(bar) luma \(luma)")
            let (u, v) = (Double(frame.u(x: x / 2, y: height / 4)), Double(frame.v(x: x / 2, y: height / 4)))
            let expected = name == "gray" ? (u: 128.0, v: 128.0) : ColourBarsJPEG.expectedChroma(bar: bar)
            #expect(abs(u - expected.u) < 6 && abs(v - expected.v) < 6, "bar \(bar) chroma \(u), \(v) expected \(expected)")
        }
    }

    @Test func anI420FrameSurvivesTheEncoderAndDecoder() throws {
        let pattern = TestPattern(width: 640, height: 480).frame(index: 7, bandValue: 12345, captureTime: .zero)
        let jpeg = try JPEGEncoder(quality: 95).encode(pattern)
        let decoder = try JPEGDecoder()
        var decoded = I420Frame(width: 640, height: 480)
        try jpeg.withUnsafeBytes { try decoder.decode($0, into: &decoded) }
        #expect(try jpeg.withUnsafeBytes { try decoder.header($0) }.subsampling == .s420)
        var total = 0
        for y in stride(from: 0, to: 480, by: 3) {
            for x in stride(from: 0, to: 640, by: 3) { total += abs(Int(decoded.luma(x: x, y: y)) - Int(pattern.luma(x: x, y: y))) }
        }
        let mean = Double(total) / Double((480 / 3) * (640 / 3))
        #expect(mean < 3, "mean luma difference \(mean)")
    }

    @Test func truncatedGarbageEmptyAndMissizedJPEGsAreErrors() throws {
        let jpeg = ColourBarsJPEG.encode(width: 320, height: 240, subsampling: Int32(TJSAMP_422.rawValue))
        let decoder = try JPEGDecoder()
        var frame = I420Frame(width: 320, height: 240)
        let truncated = Array(jpeg.prefix(jpeg.count / 2))
        #expect(throws: JPEGError.self) { try truncated.withUnsafeBytes { try decoder.decode($0, into: &frame) } }
        var garbage = jpeg
        for index in stride(from: 600, to: garbage.count - 2, by: 7) { garbage[index] ^= 0x5A }
        #expect(throws: JPEGError.self) { try garbage.withUnsafeBytes { try decoder.decode($0, into: &frame) } }
        #expect(throws: JPEGError.self) { try [UInt8]().withUnsafeBytes { try decoder.decode($0, into: &frame) } }
        #expect(throws: JPEGError.self) { try [0xFF, 0xD8, 0xFF].withUnsafeBytes { try decoder.decode($0) } }
        var wrongSize = I420Frame(width: 640, height: 480)
        #expect(throws: JPEGError.self) { try jpeg.withUnsafeBytes { try decoder.decode($0, into: &wrongSize) } }
        // The decoder is still good after all that (libjpeg-turbo 2.1 leaves a handle whose header parse
        // failed broken for good: the decoder must replace it).
        try jpeg.withUnsafeBytes { try decoder.decode($0, into: &frame) }
        #expect(frame.luma(x: 10, y: 120) > 200)
    }

    @Test func aHeaderClaimingAHugePictureIsRefusedBeforeAllocating() throws {
        var jpeg = ColourBarsJPEG.encode(width: 16, height: 16, subsampling: Int32(TJSAMP_420.rawValue))
        // SOF0 (FF C0): length(2) precision(1) height(2) width(2).
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        (jpeg[sof + 5], jpeg[sof + 6], jpeg[sof + 7], jpeg[sof + 8]) = (0xFF, 0xF0, 0xFF, 0xF0)
        let decoder = try JPEGDecoder()
        #expect(throws: JPEGError.self) { try jpeg.withUnsafeBytes { try decoder.decode($0) } }
    }
}
