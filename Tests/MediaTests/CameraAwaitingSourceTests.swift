import IntercomPlatform
import Media
import Synchronization
import Testing

/// `auto` without a camera: the test pattern until the camera appears, then the camera, within the run.
@Suite struct CameraAwaitingSourceTests {
    final class Plug: Sendable {
        let present = Atomic<Bool>(false)
        let looks = Atomic<Int>(0)
        let opened = Atomic<Int>(0)
    }

    /// The "camera" is a 32x32 pattern, the stand-in 16x16: the frame size tells them apart.
    static func source(_ plug: Plug) -> CameraAwaitingSource {
        CameraAwaitingSource(
            standIn: TestPatternSource(width: 16, height: 16, frameRate: FrameRate(100)), checkInterval: .milliseconds(50),
            onCameraOpened: { plug.opened.add(1, ordering: .relaxed) }
        ) {
            plug.looks.add(1, ordering: .relaxed)
            return plug.present.load(ordering: .relaxed) ? TestPatternSource(width: 32, height: 32, frameRate: FrameRate(100)) : nil
        }
    }

    static func pull(_ source: some VideoSource, for duration: Duration) throws -> [I420Frame] {
        var frames: [I420Frame] = []
        let end = MonotonicClock.now() + duration
        while MonotonicClock.now() < end { if let frame = try source.nextFrame() { frames.append(frame) } }
        return frames
    }

    @Test func thePatternStandsInUntilTheCameraAppearsThenTheCameraTakesOver() throws {
        let plug = Plug()
        let source = Self.source(plug)
        try source.open()
        let before = try Self.pull(source, for: .milliseconds(200))
        #expect(!before.isEmpty && before.allSatisfy { $0.width == 16 })
        #expect(plug.looks.load(ordering: .relaxed) >= 3 && plug.looks.load(ordering: .relaxed) <= 6,
                "looked \(plug.looks.load(ordering: .relaxed)) times in 200 ms at a 50 ms interval")
        #expect(plug.opened.load(ordering: .relaxed) == 0)
        plug.present.store(true, ordering: .relaxed)
        let appeared = MonotonicClock.now()
        var switchedAfter: Duration?
        while MonotonicClock.now() - appeared < .seconds(1) {
            if let frame = try source.nextFrame(), frame.width == 32 {
                switchedAfter = MonotonicClock.now() - appeared
                break
            }
        }
        let after = try #require(switchedAfter, "the camera's frames never came")
        #expect(after < .milliseconds(150))
        #expect(plug.opened.load(ordering: .relaxed) == 1, "the agent logs the camera found once")
        #expect(source.format?.width == 32)
        #expect(try Self.pull(source, for: .milliseconds(100)).allSatisfy { $0.width == 32 })
        source.close()
        #expect(source.camera == nil)
    }

    @Test func aCameraThatIsThereAtOpenIsUsedAtOnce() throws {
        let plug = Plug()
        plug.present.store(true, ordering: .relaxed)
        let source = Self.source(plug)
        try source.open()
        #expect(try Self.pull(source, for: .milliseconds(50)).allSatisfy { $0.width == 32 })
    }
}
