import Glibc
import IntercomPlatform
import Media
import Testing

/// Real-kernel multi-planar capture (`V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE`) against the harness's second vivid
/// instance (`multiplanar=2`). Runs in the QEMU harness stage next to V4L2VividTests; the host stage skips it
/// by name. Without that device every test fails (it does not skip).
@Suite("V4L2 multi-planar capture against vivid with multiplanar=2 (QEMU harness)", .serialized)
struct V4L2VividMultiPlanarTests {
    static func path() throws -> String {
        try #require(Vivid.multiPlanarPath, "no multi-planar vivid device: run inside Tests/hardware/harness.sh (vivid n_devs=2 multiplanar=1,2)")
    }

    /// Y, U, V at the centre of each of the 8 vertical colour bars, three quarters down (below vivid's text).
    static func bars(_ frame: I420Frame) -> [(y: Int, u: Int, v: Int)] {
        (0..<8).map { bar in
            let x = frame.width * (2 * bar + 1) / 16
            let y = frame.height * 3 / 4
            return (Int(frame.luma(x: x, y: y)), Int(frame.u(x: x / 2, y: y / 2)), Int(frame.v(x: x / 2, y: y / 2)))
        }
    }

    @Test("the inventory lists both vivid instances by capture API, the multi-planar one with NM12 and YM12")
    func inventory() throws {
        let multi = try #require(Vivid.devices.first { $0.bufferType == .multiPlanar })
        let single = try #require(Vivid.devices.first { $0.bufferType == .singlePlanar })
        #expect(multi.path != single.path)
        let formats = Set(multi.formats.map(\.pixelFormat))
        #expect(formats.isSuperset(of: [.nv12m, .yuv420m, .nv12, .yuv420, .yuyv]), "\(formats)")
        #expect(multi.formats.first { $0.pixelFormat == .nv12m }?.sizes.contains { $0.width == 640 && $0.height == 480 } == true)
        #expect(!single.formats.contains { $0.pixelFormat == .nv12m }, "NM12 needs the multi-planar API")
    }

    @Test("each format negotiates with fmt.pix_mp at 640x480 and decodes non-uniform frames with advancing sequence numbers",
          arguments: [PixelFormat.nv12m, .yuv420m, .nv12, .yuv420, .yuyv])
    func negotiatesFormat(pixelFormat: PixelFormat) throws {
        let source = Vivid.source(preferredFormats: [pixelFormat], path: try Self.path())
        try source.open()
        defer { source.close() }
        let negotiated = try #require(source.negotiated)
        #expect(negotiated.bufferType == .multiPlanar)
        #expect(negotiated.pixelFormat == pixelFormat)
        #expect(negotiated.planes.count == V4L2FormatSelection.planeCount(of: pixelFormat))
        #expect(negotiated.planes.allSatisfy { $0.bytesPerLine > 0 && $0.sizeImage > 0 })
        #expect(source.format?.width == 640 && source.format?.height == 480)
        let frames = try Vivid.frames(5, from: source)
        for frame in frames {
            #expect(frame.width == 640 && frame.height == 480)
            #expect(Vivid.lumaVariance(frame) > 500, "colour bars should not be flat")
        }
        for (earlier, later) in zip(frames, frames.dropFirst()) {
            #expect(later.sequence > earlier.sequence)
        }
    }

    @Test("the default preference takes NV12 in one plane from vivid's list; preferring NM12 gets two planes")
    func preferences() throws {
        let byDefault = V4L2CaptureSource(path: try Self.path())
        try byDefault.open()
        #expect(byDefault.negotiated?.pixelFormat == .nv12)
        #expect(byDefault.negotiated?.bufferType == .multiPlanar)
        #expect(byDefault.negotiated?.planes.count == 1)
        byDefault.close()
        let source = Vivid.source(preferredFormats: [.nv12m, .yuv420m, .yuyv], path: try Self.path())
        try source.open()
        defer { source.close() }
        #expect(source.negotiated?.pixelFormat == .nv12m)
        #expect(source.negotiated?.planes.count == 2)
        #expect(try Vivid.frames(2, from: source).count == 2)
    }

    @Test("NM12 and YM12 frames show vivid's 75 % colour bars, the same as the single-planar device's NV12",
          arguments: [PixelFormat.nv12m, .yuv420m])
    func colourBars(pixelFormat: PixelFormat) throws {
        let multi = Vivid.source(preferredFormats: [pixelFormat], path: try Self.path())
        try multi.open()
        defer { multi.close() }
        let bars = Self.bars(try #require(try Vivid.frames(2, from: multi).last))
        let single = Vivid.source(preferredFormats: [.nv12])
        try single.open()
        defer { single.close() }
        let reference = Self.bars(try #require(try Vivid.frames(2, from: single).last))
        print("V4L2VividMultiPlanarTests: \(pixelFormat) bars \(bars), single-planar NV12 \(reference)")
        #expect(bars[0].y > 150, "white bar")
        #expect(bars[7].y < 40, "black bar")
        #expect(bars[1].u < 90, "yellow bar has little blue")
        #expect(bars[6].u > 170, "blue bar")
        #expect(bars[5].v > 170, "red bar")
        for (mine, theirs) in zip(bars, reference) {
            #expect(abs(mine.y - theirs.y) <= 4 && abs(mine.u - theirs.u) <= 4 && abs(mine.v - theirs.v) <= 4,
                    "\(mine) vs \(theirs)")
        }
    }

    @Test("timestamps increase on CLOCK_MONOTONIC, and frames missed during a 600 ms stall are counted as dropped")
    func timestampsAndDrops() throws {
        let source = Vivid.source(width: 640, height: 360, preferredFormats: [.nv12m], path: try Self.path())
        try source.open()
        defer { source.close() }
        let previous = try Vivid.expectAscendingFreshFrames(10, from: source)
        let droppedBefore = source.droppedFrames
        usleep(600_000)  // ~18 frame intervals at 30 fps against 4 buffers: the driver has to skip frames
        // The buffers filled early in the stall come first; the skipped frames show as the gap after them.
        let after = try Vivid.frames(4, from: source)
        var sequences = [previous?.sequence ?? 0] + after.map(\.sequence)
        let gaps = zip(sequences, sequences.dropFirst()).map { $1 - $0 - 1 }
        sequences.removeFirst()
        let dropped = source.droppedFrames - droppedBefore
        print("V4L2VividMultiPlanarTests: sequences \(sequences) after the stall, dropped \(dropped)")
        #expect(dropped == gaps.reduce(0, +))
        #expect(dropped >= 10)
    }

    @Test("close, then open the same multi-planar device again, streams again; also through ReopeningVideoSource")
    func reopen() throws {
        let source = Vivid.source(preferredFormats: [.yuv420m], path: try Self.path())
        let frames = try Vivid.expectClosesAndReopens(source)
        source.close()
        #expect(frames.count == 3 && frames.allSatisfy { $0.width == 640 && $0.height == 480 })

        let reopening = ReopeningVideoSource(wrapping: Vivid.source(preferredFormats: [.nv12m], path: try Self.path()))
        try reopening.open()
        defer { reopening.close() }
        #expect(try Vivid.frames(5, from: reopening).count == 5)
        #expect(reopening.reopenCount == 0)
    }
}
