import Media
import Testing

@Suite struct VP8EncoderTests {
    /// Encodes `frames` and decodes the output, pairing each decoded picture with its source frame.
    static func roundTrip(
        _ frames: [I420Frame], encoder: VP8Encoder
    ) throws -> [(source: I420Frame, encoded: EncodedFrame, decoded: I420Frame)] {
        let decoder = try VP8Decoder()
        var pairs: [(I420Frame, EncodedFrame, I420Frame)] = []
        for frame in frames {
            for encoded in try encoder.encode(frame) {
                if let decoded = try decoder.decode(encoded) { pairs.append((frame, encoded, decoded)) }
            }
        }
        return pairs
    }

    static func patternFrames(width: Int, height: Int, count: Int) throws -> [I420Frame] {
        let source = TestPatternSource(width: width, height: height, timing: .synthetic(start: .seconds(1000)))
        try source.open()
        return try (0..<count).map { _ in try #require(try source.nextFrame()) }
    }

    @Test func vgaTestPatternAt800kbpsDecodesAbove30dB() throws {
        let frames = try Self.patternFrames(width: 640, height: 480, count: 75)
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 640, height: 480, targetBitrateKbps: 800))
        let pairs = try Self.roundTrip(frames, encoder: encoder)
        // After the first second (30 frames), as rate control has settled.
        let settled = pairs.filter { $0.source.sequence >= 30 }
        #expect(settled.count >= 30)
        let psnr = settled.map { VideoQuality.lumaPSNR($0.source, $0.decoded)! }
        let mean = psnr.reduce(0, +) / Double(psnr.count)
        #expect(psnr.min()! > 30, "Y-PSNR min \(psnr.min()!) dB, mean \(mean) dB")
    }

    @Test func aForcedKeyframeIsTheVeryNextFrame() throws {
        let frames = try Self.patternFrames(width: 160, height: 120, count: 14)
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 160, height: 120, targetBitrateKbps: 300))
        var keyframes: [Bool] = []
        for (index, frame) in frames.enumerated() {
            let output = try encoder.encode(frame, forceKeyframe: index == 10)
            #expect(output.count == 1)
            keyframes += output.map(\.isKeyframe)
        }
        #expect(keyframes == (0..<14).map { $0 == 0 || $0 == 10 })
    }

    @Test func loweringTheBitrateTakesEffectWithinOneSecondOfFrames() throws {
        // ±16 levels of fresh noise: enough detail to fill 1500 kbit/s, little enough that 300 kbit/s is
        // reachable below the maximum quantizer (so rate control adapts quality instead of dropping frames).
        var noise = NoisyFrames(width: 320, height: 240, amplitude: 16)
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 320, height: 240, targetBitrateKbps: 1500))
        func kbpsOverNext30Frames(startingAt start: Int) throws -> Double {
            var bytes = 0
            for index in start..<start + 30 {
                bytes += try encoder.encode(noise.frame(index: index)).reduce(0) { $0 + $1.bytes.count }
            }
            return Double(bytes * 8) / 1000  // 30 frames at 30 fps = 1 s
        }
        _ = try kbpsOverNext30Frames(startingAt: 0)  // settle
        let before = try kbpsOverNext30Frames(startingAt: 30)
        try encoder.setBitrate(kbps: 300)
        #expect(encoder.configuration.targetBitrateKbps == 300)
        let after = try kbpsOverNext30Frames(startingAt: 60)
        #expect(before > 1500 * 0.8, "\(before) kbit/s before the change")
        #expect(after < 300 * 1.25 && after > 300 * 0.5, "\(after) kbit/s in the second after 1500 → 300")
    }

    @Test func theTimestampBandSurvives300kbpsAndReadsBackExactly() throws {
        let frames = try Self.patternFrames(width: 640, height: 480, count: 45)
        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 640, height: 480, targetBitrateKbps: 300))
        let pairs = try Self.roundTrip(frames, encoder: encoder)
        #expect(pairs.count >= 40)
        for pair in pairs {
            let (seconds, attoseconds) = pair.source.captureTime.components
            let expected = UInt64(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
            #expect(TimestampBand.read(from: pair.decoded) == expected)
        }
    }

    @Test func rtpTimestampsFollowCaptureTimeOnThe90kHzClock() throws {
        let frames = try Self.patternFrames(width: 160, height: 120, count: 4)
        let encoder = try VP8Encoder(
            configuration: VP8EncoderConfiguration(width: 160, height: 120, targetBitrateKbps: 300),
            rtpTimestampOffset: UInt32.max - 3000)
        let encoded = try frames.flatMap { try encoder.encode($0) }
        #expect(encoded.map(\.captureTime) == frames.map(\.captureTime))
        let base = UInt32(truncatingIfNeeded: 1000 * 90_000) &+ (UInt32.max - 3000)
        // 30 fps = 3000 ticks per frame, wrapping past 2^32 like any RTP timestamp.
        #expect(encoded.map(\.rtpTimestamp) == (0..<4).map { base &+ UInt32($0 * 3000) })
    }

    @Test func badConfigurationsAndMismatchedFramesThrowTypedErrors() throws {
        let zeroWidth = #expect(throws: VPXError.self) {
            _ = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 0, height: 480, targetBitrateKbps: 800))
        }
        #expect(zeroWidth?.call == "vpx_codec_enc_init")
        var badQuantizer = VP8EncoderConfiguration(width: 160, height: 120, targetBitrateKbps: 300)
        badQuantizer.maxQuantizer = 99  // libvpx validates this itself and explains why in the detail
        let error = #expect(throws: VPXError.self) { _ = try VP8Encoder(configuration: badQuantizer) }
        #expect(error?.call == "vpx_codec_enc_init")
        #expect(error?.detail?.isEmpty == false)

        let encoder = try VP8Encoder(configuration: VP8EncoderConfiguration(width: 160, height: 120, targetBitrateKbps: 300))
        #expect(throws: VPXError.self) { _ = try encoder.encode(I420Frame(width: 320, height: 240)) }
        #expect(throws: VPXError.self) { try encoder.setBitrate(kbps: 0) }
    }

    @Test func theBenchmarkBaselineMatchesVp8bench() {
        let baseline = VP8EncoderConfiguration.benchmarkBaseline(width: 640, height: 480, targetBitrateKbps: 800)
        #expect(baseline.cpuUsed == -12 && baseline.threads == 1)
        #expect(baseline.dropFrameThreshold == 0 && baseline.noiseSensitivity == 0)
        #expect(baseline.maxIntraBitratePercent == nil)
        #expect((baseline.minQuantizer, baseline.maxQuantizer, baseline.keyframeMaxDistance) == (2, 56, 3000))
    }
}
