import Foundation
import IntercomPlatform
import Media
import Testing

/// The QEMU harness's USB webcam: a UVC gadget on dummy_hcd (`Tests/hardware/uvc-gadget/uvc-gadget.sh`)
/// that the guest's real uvcvideo driver sees as a USB camera. Its feeder sends a known pattern: eight colour
/// bars above 7/8 of the height (the colours of `ColourBarsJPEG`) and, below, 16 cells holding the feeder's
/// frame counter, most significant bit first (white = 1).
enum UVCGadget {
    static let script: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/Tests/hardware/uvc-gadget/uvc-gadget.sh"
    }()

    /// Inside the harness guest (vivid is loaded there and nowhere else we run tests). Inside it, a missing
    /// gadget is a failure that `up()` reports, not a reason to skip.
    static var inHarness: Bool { Vivid.isAvailable }

    struct ScriptFailed: Error, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var output: String
        var description: String { "uvc-gadget.sh \(arguments.joined(separator: " ")) exited \(status): \(output)" }
    }

    /// A running `uvc-gadget.sh`. posix_spawn and waitpid, with the output in a file: the script leaves the
    /// feeder running in the background, which must not keep the test waiting for the end of a pipe.
    struct Running {
        var pid: pid_t
        var arguments: [String]
        var outputPath: String
    }

    static func start(_ arguments: [String]) throws -> Running {
        let outputPath = "/run/intercom-uvc-script-\(getpid())-\(arguments[0]).log"
        let command = (["/bin/sh", script] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let words: [String] = ["/bin/sh", "-c", "exec \(command) > '\(outputPath)' 2>&1 < /dev/null"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/bin/sh", nil, nil, argv + [nil], environ)
        guard status == 0 else {
            throw ScriptFailed(arguments: arguments, status: -1, output: "posix_spawn: \(String(cString: strerror(status)))")
        }
        return Running(pid: pid, arguments: arguments, outputPath: outputPath)
    }

    /// Waits for a script started by `start`; its last output line (the capture node for up and replug).
    @discardableResult
    static func finish(_ running: Running) throws -> String {
        var status: Int32 = 0
        while waitpid(running.pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: running.outputPath, encoding: .utf8)) ?? ""
        unlink(running.outputPath)
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exitStatus == 0 else { throw ScriptFailed(arguments: running.arguments, status: exitStatus, output: text) }
        return text.split(separator: "\n").last.map(String.init) ?? ""
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        try finish(start(arguments))
    }

    /// Binds the gadget with a fresh feeder (options such as `--corrupt-every 5`); the uvcvideo capture node.
    static func up(_ feederOptions: [String] = []) throws -> String {
        let node = try run(["up"] + feederOptions)
        try #require(node.hasPrefix("/dev/video"), "uvc-gadget.sh up printed \(node)")
        return node
    }

    static func down() { _ = try? run(["down"]) }

    /// When the script last wrote the gadget's UDC file (`event` is "bound" or "unbound"), on MonotonicClock:
    /// the script records /proc/uptime, which equals CLOCK_MONOTONIC in the never-suspended guest.
    static func lastWrite(_ event: String) throws -> Duration {
        let text = try String(contentsOfFile: "/run/intercom-uvc/\(event)-at", encoding: .utf8)
        let seconds = try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), "\(event)-at: \(text)")
        return .milliseconds(Int64(seconds * 1000))
    }

    /// The frame counter in the band below the bars.
    static func counter(of frame: I420Frame) -> Int {
        let y = frame.height * 15 / 16
        var value = 0
        for cell in 0..<16 {
            let x = (2 * cell + 1) * frame.width / 32
            value = value << 1 | (frame.luma(x: x, y: y) > 128 ? 1 : 0)
        }
        return value
    }

    /// Checks the bars at the middle of each bar, halfway down the bar area, against `ColourBarsJPEG`.
    static func expectBars(_ frame: I420Frame, tolerance: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let y = frame.height * 7 / 16
        for bar in 0..<ColourBarsJPEG.colours.count {
            let x = (2 * bar + 1) * frame.width / 16
            let luma = Double(frame.luma(x: x, y: y))
            let expected = ColourBarsJPEG.expectedLuma(bar: bar)
            #expect(abs(luma - expected) <= tolerance, "bar \(bar) luma \(luma), expected \(expected)",
                    sourceLocation: sourceLocation)
            let chroma = ColourBarsJPEG.expectedChroma(bar: bar)
            let (u, v) = (Double(frame.u(x: x / 2, y: y / 2)), Double(frame.v(x: x / 2, y: y / 2)))
            #expect(abs(u - chroma.u) <= tolerance && abs(v - chroma.v) <= tolerance,
                    "bar \(bar) chroma (\(u), \(v)), expected (\(chroma.u), \(chroma.v))", sourceLocation: sourceLocation)
        }
    }
}

/// Real-kernel USB camera tests: uvcvideo capture through `V4L2CaptureSource`, MJPEG decoding, corrupt frames
/// and a real unplug. They run in the QEMU harness stage (`scripts/test.sh harness-tests`); the host stage
/// skips them by name.
@Suite("V4L2 capture from a USB webcam: a UVC gadget on dummy_hcd with uvcvideo (QEMU harness)", .serialized,
       .enabled(if: UVCGadget.inHarness, "needs the QEMU harness's USB webcam: run inside Tests/hardware/harness.sh"))
struct V4L2UVCGadgetTests {
    @Test("YUYV 640x480 through uvcvideo: the feeder's bars and a rising frame counter")
    func yuyv() throws {
        let node = try UVCGadget.up()
        defer { UVCGadget.down() }
        let source = V4L2CaptureSource(path: node, width: 640, height: 480, preferredFormats: [.yuyv])
        try source.open()
        defer { source.close() }
        #expect(source.negotiated?.pixelFormat == .yuyv)
        let frames = try Vivid.frames(5, from: source)
        #expect(frames.allSatisfy { $0.width == 640 && $0.height == 480 })
        UVCGadget.expectBars(frames[4], tolerance: 2)
        #expect(UVCGadget.counter(of: frames[4]) > UVCGadget.counter(of: frames[0]))
    }

    @Test("MJPEG through uvcvideo and TurboJPEG: the decoded bars and a rising frame counter",
          arguments: [(640, 480), (1280, 720)])
    func mjpeg(width: Int, height: Int) throws {
        let node = try UVCGadget.up()
        defer { UVCGadget.down() }
        let source = V4L2CaptureSource(path: node, width: width, height: height, preferredFormats: [.mjpeg])
        try source.open()
        defer { source.close() }
        #expect(source.negotiated?.pixelFormat == .mjpeg)
        let frames = try Vivid.frames(5, from: source)
        #expect(frames.allSatisfy { $0.width == width && $0.height == height })
        UVCGadget.expectBars(frames[4], tolerance: 6)
        #expect(UVCGadget.counter(of: frames[4]) > UVCGadget.counter(of: frames[0]))
        #expect(source.corruptFrames == 0)
    }

    /// Webcams often offer 15 and 30 fps only (the gadget does at 160x120, small enough for the TCG guest to
    /// stream at 15 fps), not the 5 a Pi Zero's intercom may be configured for: the source keeps to 5 by
    /// handing the frames that are not due straight back to the driver, before their JPEG decode.
    @Test("a webcam offering only 15 and 30 fps is captured at the 5 fps asked for, the rest skipped before decoding")
    func pacedToTheRequestedRate() throws {
        let node = try UVCGadget.up()
        defer { UVCGadget.down() }
        let source = V4L2CaptureSource(path: node, width: 160, height: 120, frameRate: FrameRate(5), preferredFormats: [.mjpeg])
        try source.open()
        defer { source.close() }
        let cameraRate = try #require(source.negotiated?.frameRate.framesPerSecond)
        let measured = try Vivid.measuredFramesPerSecond(10, from: source)
        print("V4L2UVCGadgetTests: camera at \(cameraRate) fps, delivered \(measured) fps, \(source.pacedFrames) skipped")
        #expect(cameraRate >= 15, "the gadget offers 15 and 30 fps only")
        #expect((4.0...6.0).contains(measured))
        #expect(source.pacedFrames >= 10)
    }

    @Test("a garbage MJPEG frame every 5th is dropped and counted; the stream goes on with the good ones")
    func corruptMJPEG() throws {
        let node = try UVCGadget.up(["--corrupt-every", "5"])
        defer { UVCGadget.down() }
        let source = V4L2CaptureSource(path: node, width: 640, height: 480, preferredFormats: [.mjpeg])
        try source.open()
        defer { source.close() }
        // At least 24 good frames, and on until three garbage ones were counted (at most 96): in a loaded
        // guest uvcvideo drops whole runs of frames, garbage ones included (2 of 60 reached us once).
        var frames = try Vivid.frames(24, from: source)
        while source.corruptFrames < 3 && frames.count < 96 { frames += try Vivid.frames(8, from: source) }
        let counters = frames.map(UVCGadget.counter(of:))
        print("V4L2UVCGadgetTests: counters \(counters), corrupt \(source.corruptFrames): \(source.lastCorruption ?? "-")")
        // The feeder replaces frames 4, 9, 14, … (counter % 5 == 4): none of them may come out as a picture.
        #expect(counters.allSatisfy { $0 % 5 != 4 })
        #expect(source.corruptFrames >= 3)
        #expect(counters.last! > counters.first!)
        UVCGadget.expectBars(frames.last!, tolerance: 6)
    }

    /// Unplug mid-stream, then replug while the test still holds the old node open, so the kernel must give
    /// the camera another /dev/videoN: `V4L2CaptureSource` has to find it by identity.
    @Test("unplugged mid-stream: device lost within 2 s; replugged at another node: frames again within 5 s")
    func unplugAndReplug() throws {
        let node = try UVCGadget.up()
        defer { UVCGadget.down() }
        final class EventLog { var events: [(Duration, ReopeningVideoSource.Event)] = [] }
        let log = EventLog()
        let capture = V4L2CaptureSource(
            path: node, width: 640, height: 480, preferredFormats: [.mjpeg], memory: V4L2CameraMemory())
        let source = ReopeningVideoSource(
            wrapping: capture, backoff: .init(initial: .milliseconds(100), maximum: .milliseconds(200)),
            onEvent: { log.events.append((MonotonicClock.now(), $0)) })
        try source.open()
        defer { source.close() }
        _ = try Vivid.frames(3, from: source)
        // Keeps the old node's number taken across the replug.
        let oldNode = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(oldNode >= 0, "open \(node): errno \(errno)")
        defer { close(oldNode) }

        let unplugStart = MonotonicClock.now()
        let unplug = try UVCGadget.start(["unplug"])
        while log.events.isEmpty && MonotonicClock.now() - unplugStart < .seconds(10) {
            _ = try source.nextFrame()
        }
        try UVCGadget.finish(unplug)
        let (lostAt, lost) = try #require(log.events.first, "no event within 10 s of the unplug")
        guard case .lost(let error) = lost else { Issue.record("first event \(lost), expected .lost"); return }
        let unbound = try UVCGadget.lastWrite("unbound")
        print("V4L2UVCGadgetTests: device lost \(lostAt - unbound) after the unbind (\(lostAt - unplugStart) after starting the script): \(error)")
        // /proc/uptime has 10 ms steps.
        #expect(lostAt - unbound <= .seconds(2) && lostAt - unbound >= .milliseconds(-10))

        let replugStart = MonotonicClock.now()
        let replug = try UVCGadget.start(["replug"])
        var resumed: I420Frame?
        while resumed == nil && MonotonicClock.now() - replugStart < .seconds(20) {
            resumed = try source.nextFrame()
        }
        let resumedAt = MonotonicClock.now()
        let newNode = try UVCGadget.finish(replug)
        let resumedAfter = resumedAt - (try UVCGadget.lastWrite("bound"))
        print("V4L2UVCGadgetTests: \(node) came back as \(newNode); first frame \(resumedAfter) after the bind (\(resumedAt - replugStart) after starting the script); events \(log.events.map(\.1))")
        let frame = try #require(resumed, "no frame within 20 s of the replug")
        #expect(newNode != node, "the held-open old node should have forced a new number")
        #expect(capture.path == newNode)
        #expect(source.reopenCount == 1)
        #expect(resumedAfter <= .seconds(5) && resumedAfter > .zero)
        UVCGadget.expectBars(frame, tolerance: 6)
    }
}
