import Testing
@testable import Media

/// The libcamera source's pure parts: formats, frame timing arithmetic, buffer layouts. No camera needed
/// (LibcameraVimcTests run the real thing in the harness).
@Suite("libcamera source: pixel formats, frame timing and buffer decoding")
struct LibcameraFormatTests {
    @Test("fourccs are libcamera's DRM codes: YU12, NV12, BG24, RG24")
    func fourccs() {
        #expect(LibcameraPixelFormat.allCases.map { LibcameraPixelFormat.fourccText($0.rawValue) } == ["YU12", "NV12", "BG24", "RG24"])
        #expect(LibcameraPixelFormat.preferenceOrder.first == .yuv420)
        #expect(LibcameraPixelFormat.preferenceOrder.last == .rgb888)
    }

    @Test("FrameDurationLimits microseconds for common rates", arguments: [
        (FrameRate(30), 33_333), (FrameRate(25), 40_000), (FrameRate(30000, 1001), 33_367), (FrameRate(1), 1_000_000),
    ] as [(FrameRate, Int64)])
    func frameDuration(rate: FrameRate, microseconds: Int64) {
        #expect(LibcameraFrameTiming.frameDurationMicroseconds(rate) == microseconds)
    }

    @Test("dropped frames come from sequence gaps; first frames, repeats and restarts count none")
    func droppedFrames() {
        #expect(LibcameraFrameTiming.droppedFrames(previous: nil, current: 7) == 0)
        #expect(LibcameraFrameTiming.droppedFrames(previous: 7, current: 8) == 0)
        #expect(LibcameraFrameTiming.droppedFrames(previous: 7, current: 10) == 2)
        #expect(LibcameraFrameTiming.droppedFrames(previous: UInt32.max, current: 1) == 1)
        #expect(LibcameraFrameTiming.droppedFrames(previous: 500, current: 3) == 0)
    }

    @Test("nextFrame waits one frame interval, at least 5 ms, never longer than the frame timeout")
    func pollTimeout() {
        #expect(LibcameraFrameTiming.pollTimeoutMilliseconds(FrameRate(30), limit: .seconds(2)) == 33)
        #expect(LibcameraFrameTiming.pollTimeoutMilliseconds(FrameRate(1), limit: .milliseconds(300)) == 300)
        #expect(LibcameraFrameTiming.pollTimeoutMilliseconds(FrameRate(1000), limit: .seconds(2)) == 5)
    }

    @Test("pacing a 24 fps camera to 5 fps delivers 5 fps in the long run, not 6 (every 4th or 5th frame)")
    func pacingRate() {
        var pacer = CaptureRatePacer(rate: FrameRate(5))
        let cameraInterval = Duration.seconds(1) / 24
        var delivered = 0
        for frame in 0..<240 where pacer.admit(cameraInterval * frame) { delivered += 1 }  // 10 s of camera frames
        #expect((49...51).contains(delivered), "\(delivered) frames in 10 s")
    }

    @Test("pacing keeps every frame of a camera at the requested rate despite jitter, and restarts after a stall")
    func pacingJitterAndStall() {
        var pacer = CaptureRatePacer(rate: FrameRate(30))
        let jittered: [Duration] = [.milliseconds(0), .milliseconds(31), .milliseconds(70), .milliseconds(98), .milliseconds(135)]
        let admitted = jittered.map { pacer.admit($0) }
        #expect(admitted == [true, true, true, true, true])
        // A 5 s stall: the next frame is delivered, and no burst follows it.
        let afterStall = [Duration.seconds(5), .seconds(5) + .milliseconds(10), .seconds(5) + .milliseconds(34)].map { pacer.admit($0) }
        #expect(afterStall == [true, false, true])
    }

    @Test("YUV420 in one dmabuf plane and in three planes decode to the same I420 frame")
    func yuv420Layouts() throws {
        let (width, height, stride) = (4, 2, 8)  // padded lines: Y 8 bytes, U/V 4 bytes apart
        let luma: [UInt8] = [1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8, 0, 0, 0, 0]
        let u: [UInt8] = [20, 21, 0, 0]
        let v: [UInt8] = [30, 31, 0, 0]
        let format = LibcameraNegotiatedFormat(
            cameraID: "test", pixelFormat: .yuv420, width: width, height: height, stride: stride, bufferCount: 4,
            frameRateApplied: false, frameRate: FrameRate(30))
        var single = I420Frame(width: width, height: height)
        var three = I420Frame(width: width, height: height)
        let whole = luma + u + v
        try whole.withUnsafeBytes { bytes in
            try LibcameraFrameDecoder.decode([bytes], format: format, into: &single)
        }
        try luma.withUnsafeBytes { y in
            try u.withUnsafeBytes { uBytes in
                try v.withUnsafeBytes { vBytes in
                    try LibcameraFrameDecoder.decode([y, uBytes, vBytes], format: format, into: &three)
                }
            }
        }
        #expect(single.packedBytes() == [1, 2, 3, 4, 5, 6, 7, 8, 20, 21, 30, 31])
        #expect(three == single)
    }

    @Test("a YUV420 buffer too short for its size is a conversion error, not a crash")
    func shortBuffer() {
        let format = LibcameraNegotiatedFormat(
            cameraID: "test", pixelFormat: .yuv420, width: 4, height: 2, stride: 4, bufferCount: 4,
            frameRateApplied: false, frameRate: FrameRate(30))
        var frame = I420Frame(width: 4, height: 2)
        let bytes = [UInt8](repeating: 0, count: 9)
        #expect(throws: PixelConversionError.self) {
            try bytes.withUnsafeBytes { try LibcameraFrameDecoder.decode([$0], format: format, into: &frame) }
        }
    }
}
