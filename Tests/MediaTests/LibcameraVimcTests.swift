import Glibc
import IntercomPlatform
import Media
import Testing

/// libcamera's vimc camera as the QEMU harness loads it (Tests/hardware/harness.sh builds vimc out of tree,
/// guest-init.sh marks the nodes initialized for libudev). libcamera 0.0.3's vimc pipeline offers only
/// BGR888/RGB888 and sizes in multiples of 6 (the scaler triples the sensor's even-sized output), and it
/// takes no FrameDurationLimits: the rate is vimc's own.
enum Vimc {
    /// The vimc camera's id, or a failure that says what is missing (these tests fail rather than skip:
    /// the host stage leaves them out by name, so in the harness a missing vimc is a harness bug).
    static func cameraID() throws -> String {
        let cameras: [LibcameraInventory.Camera]
        do {
            cameras = try LibcameraInventory.cameras()
        } catch {
            throw Missing(reason: "libcamera could not list cameras: \(error)")
        }
        guard let camera = cameras.first(where: { $0.id.contains("vimc") }) else {
            let vimcLoaded = (try? String(contentsOfFile: "/proc/modules", encoding: .utf8))?.contains("vimc ") == true
            throw Missing(reason: "no vimc camera among \(cameras.map(\.id)); vimc module "
                + (vimcLoaded ? "loaded (is libcamera-ipa installed? are /run/udev/data entries there?)" : "not loaded")
                + ": run inside Tests/hardware/harness.sh")
        }
        return camera.id
    }

    static func source(_ id: String, width: Int = 480, height: Int = 360, frameTimeout: Duration = .seconds(3)) -> LibcameraVideoSource {
        LibcameraVideoSource(cameraID: id, width: width, height: height, frameRate: FrameRate(30), frameTimeout: frameTimeout)
    }

    struct Missing: Error, CustomStringConvertible {
        var reason: String
        var description: String { "vimc/libcamera missing: \(reason)" }
    }
}

/// Real-kernel libcamera capture tests. They run inside the QEMU harness stage (`harness.sh run -- …xctest
/// --filter LibcameraVimcTests`); the host stage skips them by name because the host has no vimc.
@Suite("libcamera capture against the kernel's vimc camera (QEMU harness)", .serialized)
struct LibcameraVimcTests {
    @Test("libcamera lists the vimc camera with a format the source converts")
    func listsVimc() throws {
        let id = try Vimc.cameraID()
        let camera = try #require(try LibcameraInventory.cameras().first { $0.id == id })
        #expect(camera.formats.contains { $0.name == "BGR888" && $0.converted }, "formats: \(camera.formats.map(\.name))")
    }

    @Test("a 480x360 request negotiates 480x360 BGR888 and decodes to non-flat 480x360 I420 frames")
    func negotiatesAndDecodes() throws {
        let source = Vimc.source(try Vimc.cameraID())
        try source.open()
        defer { source.close() }
        #expect(source.negotiated?.pixelFormat == .bgr888)
        #expect(source.format?.width == 480 && source.format?.height == 360)
        let frames = try Vivid.frames(5, from: source)  // the suite-independent frame reader
        for frame in frames {
            #expect(frame.width == 480 && frame.height == 360)
            #expect(Vivid.lumaVariance(frame) > 100, "vimc's colour bars should not be flat")
        }
    }

    @Test("a 640x480 request comes back as vimc's nearest size, 636x480, and the frames have that size")
    func negotiatedSizeWins() throws {
        let source = Vimc.source(try Vimc.cameraID(), width: 640, height: 480)
        try source.open()
        defer { source.close() }
        #expect(source.format?.width == 636 && source.format?.height == 480)
        let frame = try #require(try Vivid.frames(1, from: source).first)
        #expect(frame.width == 636 && frame.height == 480)
    }

    @Test("30 frames arrive at a plausible rate (vimc paces itself; 3 to 65 fps under TCG)")
    func frameRate() throws {
        let source = Vimc.source(try Vimc.cameraID())
        try source.open()
        defer { source.close() }
        let measured = try Vivid.measuredFramesPerSecond(30, from: source)
        print("LibcameraVimcTests: 30 frames in \(30 / measured) s = \(measured) fps, dropped \(source.droppedFrames)")
        #expect((3...65).contains(measured))
    }

    @Test("vimc ignores FrameDurationLimits, so a 5 fps request is kept by skipping early frames: 3.5 to 6 fps")
    func pacedToRequestedRate() throws {
        let source = LibcameraVideoSource(cameraID: try Vimc.cameraID(), width: 480, height: 360, frameRate: FrameRate(5))
        try source.open()
        defer { source.close() }
        #expect(source.negotiated?.frameRateApplied == false)
        let measured = try Vivid.measuredFramesPerSecond(15, from: source, settling: 1)
        print("LibcameraVimcTests: 5 fps requested, \(measured) fps delivered, \(source.pacedFrames) paced")
        #expect((3.5...6).contains(measured))
        #expect(source.pacedFrames > 0)
    }

    @Test("capture timestamps (SensorTimestamp) strictly increase and are close to CLOCK_MONOTONIC now")
    func timestamps() throws {
        let source = Vimc.source(try Vimc.cameraID())
        try source.open()
        defer { source.close() }
        var previous: I420Frame?
        for _ in 0..<15 {
            let frame = try #require(try Vivid.frames(1, from: source).first)
            let age = MonotonicClock.now() - frame.captureTime
            #expect(age >= .zero && age < .seconds(1), "frame is \(age) old")
            if let previous {
                #expect(frame.captureTime > previous.captureTime)
                #expect(frame.sequence > previous.sequence)
            }
            previous = frame
        }
    }

    @Test("close, then open the same camera again, streams again; close is idempotent")
    func stopAndStartAgain() throws {
        let source = Vimc.source(try Vimc.cameraID())
        defer { source.close() }
        let frames = try Vivid.expectClosesAndReopens(source)
        #expect(frames.count == 3 && frames.allSatisfy { $0.width == 480 })
    }

    @Test("ReopeningVideoSource over LibcameraVideoSource delivers frames")
    func throughReopeningSource() throws {
        let source = ReopeningVideoSource(wrapping: Vimc.source(try Vimc.cameraID()))
        try source.open()
        defer { source.close() }
        #expect(try Vivid.frames(5, from: source).count == 5)
        #expect(source.reopenCount == 0)
    }

    @Test("an unknown camera id is a device-lost error naming CameraManager::get, so it would be retried")
    func unknownCamera() throws {
        _ = try Vimc.cameraID()
        let source = LibcameraVideoSource(cameraID: "no/such camera")
        let error = try #require(#expect(throws: VideoSourceError.self) { try source.open() })
        #expect(error.isDeviceLost)
        #expect(error == .system(SystemCallError(call: "CameraManager::get", errno: ENODEV, path: "libcamera:no/such camera")))
        #expect(source.format == nil)
    }
}
