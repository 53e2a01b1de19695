import Glibc
import IntercomPlatform
import Media
import Testing

/// The kernel's vivid virtual camera as the QEMU harness (Tests/hardware/harness.sh) loads it: two
/// capture-only instances, a single-planar one and a multi-planar one (`n_devs=2 multiplanar=1,2`), found by
/// driver and capture API rather than by node number. The default input of each is a webcam showing colour
/// bars; it caps the rate by size: 640x480 tops out at 25 fps, 640x360 reaches 30 (so the rate tests use 640x360).
enum Vivid {
    static let devices: [V4L2CaptureDevice] = V4L2Inventory.captureDevices().devices.filter { $0.driver == "vivid" }
    static let capturePath: String? = devices.first { $0.bufferType == .singlePlanar }?.path
    static let multiPlanarPath: String? = devices.first { $0.bufferType == .multiPlanar }?.path

    static var isAvailable: Bool { capturePath != nil }

    static func source(
        width: Int = 640, height: Int = 480, preferredFormats: [PixelFormat] = [.nv12, .yuv420, .yuyv],
        path: String? = capturePath
    ) -> V4L2CaptureSource {
        V4L2CaptureSource(path: path ?? "/dev/null", width: width, height: height,
                          frameRate: FrameRate(30), preferredFormats: preferredFormats)
    }

    /// The next `count` frames; nil results (nothing ready yet) are retried, errors propagate.
    static func frames(_ count: Int, from source: some VideoSource) throws -> [I420Frame] {
        var frames: [I420Frame] = []
        var attempts = 0
        while frames.count < count {
            attempts += 1
            guard attempts < count * 20 + 100 else { throw NoFrames() }
            if let frame = try source.nextFrame() { frames.append(frame) }
        }
        return frames
    }

    /// Frames per second over `count` frames, after `settling` frames that let the stream settle.
    static func measuredFramesPerSecond(_ count: Int, from source: some VideoSource, settling: Int = 2) throws -> Double {
        _ = try frames(settling, from: source)
        let start = MonotonicClock.now()
        _ = try frames(count, from: source)
        return Double(count) / (Double((MonotonicClock.now() - start) / .milliseconds(1)) / 1000)
    }

    /// The close/reopen contract every capture source keeps: it streams, `close()` twice is harmless, a closed
    /// source has no format and refuses `nextFrame()`, and `open()` again streams again. Returns three frames
    /// from the reopened source, which is left open.
    static func expectClosesAndReopens(_ source: some VideoSource) throws -> [I420Frame] {
        try source.open()
        _ = try frames(3, from: source)
        source.close()
        source.close()
        #expect(source.format == nil)
        #expect(throws: VideoSourceError.notOpen) { try source.nextFrame() }
        try source.open()
        return try frames(3, from: source)
    }

    /// Reads `count` frames one at a time and expects each to be fresh on CLOCK_MONOTONIC, with a capture time
    /// and sequence number above the one before. Returns the last frame.
    static func expectAscendingFreshFrames(_ count: Int, from source: some VideoSource) throws -> I420Frame? {
        var previous: I420Frame?
        for _ in 0..<count {
            let frame = try #require(try frames(1, from: source).first)
            let age = MonotonicClock.now() - frame.captureTime
            // vivid stamps a frame with its nominal end-of-frame time, which can run up to one interval ahead.
            #expect(age > .milliseconds(-100) && age < .milliseconds(500), "frame is \(age) old")
            if let previous {
                #expect(frame.captureTime > previous.captureTime)
                #expect(frame.sequence > previous.sequence)
            }
            previous = frame
        }
        return previous
    }

    /// Variance of the luma samples: near zero for a flat picture, large for colour bars.
    static func lumaVariance(_ frame: I420Frame) -> Double {
        var sum = 0.0
        var squares = 0.0
        for y in stride(from: 0, to: frame.height, by: 4) {
            for x in stride(from: 0, to: frame.width, by: 4) {
                let sample = Double(frame.luma(x: x, y: y))
                sum += sample
                squares += sample * sample
            }
        }
        let count = Double(((frame.height + 3) / 4) * ((frame.width + 3) / 4))
        let mean = sum / count
        return squares / count - mean * mean
    }

    struct NoFrames: Error {}
}

/// Real-kernel V4L2 capture tests. They run inside the QEMU harness stage (`harness.sh run -- …xctest
/// --filter V4L2VividTests`); the host stage skips them by name because the host has no vivid.
@Suite("V4L2 mmap capture against the kernel's vivid camera (QEMU harness)", .serialized,
       .enabled(if: Vivid.isAvailable, "needs vivid: run inside Tests/hardware/harness.sh"))
struct V4L2VividTests {
    @Test("each forced pixel format negotiates at 640x480 and decodes to non-uniform 640x480 I420 frames",
          arguments: [PixelFormat.yuyv, .nv12, .yuv420])
    func negotiatesFormat(pixelFormat: PixelFormat) throws {
        let source = Vivid.source(preferredFormats: [pixelFormat])
        try source.open()
        defer { source.close() }
        #expect(source.negotiated?.pixelFormat == pixelFormat)
        #expect(source.format?.width == 640)
        #expect(source.format?.height == 480)
        let frames = try Vivid.frames(5, from: source)
        for frame in frames {
            #expect(frame.width == 640 && frame.height == 480)
            #expect(Vivid.lumaVariance(frame) > 500, "colour bars should not be flat")
        }
    }

    @Test("the default preference picks NV12, the cheapest format vivid offers")
    func defaultPreference() throws {
        let source = Vivid.source()
        try source.open()
        defer { source.close() }
        #expect(source.negotiated?.pixelFormat == .nv12)
    }

    @Test("a 1280x720 request gives 1280x720 frames")
    func hd720() throws {
        let source = Vivid.source(width: 1280, height: 720)
        try source.open()
        defer { source.close() }
        #expect(source.format?.width == 1280)
        #expect(source.format?.height == 720)
        let frames = try Vivid.frames(3, from: source)
        #expect(frames.allSatisfy { $0.width == 1280 && $0.height == 720 })
        #expect(Vivid.lumaVariance(frames[2]) > 500)
    }

    @Test("60 frames at a requested 30 fps arrive at 25 to 35 fps")
    func frameRate() throws {
        let source = Vivid.source(width: 640, height: 360, preferredFormats: [.yuyv])
        try source.open()
        defer { source.close() }
        #expect(source.format?.frameRate.framesPerSecond == 30)
        let measured = try Vivid.measuredFramesPerSecond(60, from: source)
        print("V4L2VividTests: 60 frames in \(60 / measured) s = \(measured) fps, dropped \(source.droppedFrames)")
        #expect((25...35).contains(measured))
    }

    @Test("capture timestamps strictly increase and are close to CLOCK_MONOTONIC now")
    func timestamps() throws {
        let source = Vivid.source(width: 640, height: 360)
        try source.open()
        defer { source.close() }
        _ = try Vivid.expectAscendingFreshFrames(20, from: source)
    }

    @Test("streams for 10 s without an error: at least 250 frames at 30 fps")
    func tenSeconds() throws {
        let source = Vivid.source(width: 640, height: 360, preferredFormats: [.nv12])
        try source.open()
        defer { source.close() }
        let end = MonotonicClock.now() + .seconds(10)
        var count = 0
        while MonotonicClock.now() < end {
            if try source.nextFrame() != nil { count += 1 }
        }
        print("V4L2VividTests: \(count) frames in 10 s, dropped \(source.droppedFrames)")
        #expect(count >= 250)
    }

    @Test("close, then open the same device again, streams again; close is idempotent")
    func reopen() throws {
        let source = Vivid.source()
        defer { source.close() }
        let frames = try Vivid.expectClosesAndReopens(source)
        #expect(frames.count == 3 && frames.allSatisfy { $0.width == 640 })
    }

    @Test("ReopeningVideoSource over V4L2CaptureSource delivers frames")
    func throughReopeningSource() throws {
        let source = ReopeningVideoSource(wrapping: Vivid.source())
        try source.open()
        defer { source.close() }
        let frames = try Vivid.frames(10, from: source)
        #expect(frames.count == 10)
        #expect(source.reopenCount == 0)
    }

    @Test("no frame within the timeout is a device-lost error, so ReopeningVideoSource would reopen")
    func timeoutIsDeviceLost() throws {
        // At 1 fps a 300 ms wait must run dry within a few calls.
        let source = V4L2CaptureSource(path: try #require(Vivid.capturePath), frameRate: FrameRate(1),
                                       frameTimeout: .milliseconds(300))
        try source.open()
        defer { source.close() }
        #expect(source.format?.frameRate == FrameRate(1))
        var thrown: VideoSourceError?
        for _ in 0..<5 where thrown == nil {
            do { _ = try source.nextFrame() } catch { thrown = error }
        }
        let error = try #require(thrown)
        #expect(error.isDeviceLost)
        #expect("\(error)".contains("no frame within"))
    }

    @Test("a node that is not a V4L2 device, and a missing path, give clear errors")
    func badPaths() throws {
        let notCamera = V4L2CaptureSource(path: "/dev/null")
        let error = #expect(throws: VideoSourceError.self) { try notCamera.open() }
        #expect(error.map { "\($0)" }?.contains("not a V4L2 device") == true)
        #expect(notCamera.format == nil)

        let missing = V4L2CaptureSource(path: "/dev/video-does-not-exist")
        let missingError = #expect(throws: VideoSourceError.self) { try missing.open() }
        #expect(missingError == .system(SystemCallError(call: "open", errno: ENOENT, path: "/dev/video-does-not-exist")))
    }
}
