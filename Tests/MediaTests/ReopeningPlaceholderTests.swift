import Glibc
import IntercomPlatform
import Media
import Testing

/// While the camera is away the call keeps getting pictures: the last one, dimmed, at the placeholder's rate;
/// a camera missing when a later run opens it is waited for the same way.
@Suite struct ReopeningPlaceholderTests {
    static func pull(_ source: ReopeningVideoSource, for duration: Duration) throws -> [I420Frame] {
        var frames: [I420Frame] = []
        let end = MonotonicClock.now() + duration
        while MonotonicClock.now() < end {
            if let frame = try source.nextFrame() { frames.append(frame) }
        }
        return frames
    }

    @Test func theLastPictureDimmedKeepsComingUntilTheCameraIsBack() throws {
        let camera = TestPatternSource(width: 64, height: 48, frameRate: FrameRate(100))
        // Unplugged after 5 frames; the next 4 opens fail (the node is gone): ~0.4 s of placeholder at 20 ms backoff.
        let flaky = FaultInjectingVideoSource(wrapping: camera, failAfterFrames: 5, failingOpens: 4)
        let source = ReopeningVideoSource(
            wrapping: flaky, backoff: .init(initial: .milliseconds(100), maximum: .milliseconds(100)),
            pollInterval: .milliseconds(10),
            placeholder: .init(interval: .milliseconds(50), width: 64, height: 48))
        try source.open()
        var live: [I420Frame] = []
        while live.count < 5 { if let frame = try source.nextFrame() { live.append(frame) } }
        let during = try Self.pull(source, for: .milliseconds(300))
        #expect(source.placeholderCount >= 4 && source.placeholderCount <= 8, "placeholders in 300 ms: \(source.placeholderCount)")
        let placeholder = try #require(during.first)
        // A third of the brightness of the last live frame, the same size.
        let last = try #require(live.last)
        #expect(placeholder.width == 64 && placeholder.height == 48)
        let (bright, dim) = (Int(last.luma(x: 4, y: 4)), Int(placeholder.luma(x: 4, y: 4)))
        #expect(dim == 16 + (bright - 16) / 3, "luma \(bright) → \(dim)")
        #expect(zip(during, during.dropFirst()).allSatisfy { $0.captureTime < $1.captureTime && $0.sequence < $1.sequence })
        // The camera comes back (after its 4 failing opens) and live frames follow.
        let after = try Self.pull(source, for: .milliseconds(500))
        #expect(source.reopenCount == 1)
        #expect(after.count > 20, "live frames after the reopen: \(after.count)")
    }

    @Test func aMissingCameraAtOpenIsWaitedForOnlyWhenAsked() throws {
        func unplugged() -> FaultInjectingVideoSource {
            let camera = TestPatternSource(width: 32, height: 32, frameRate: FrameRate(100))
            let flaky = FaultInjectingVideoSource(wrapping: camera, failAfterFrames: 0, failingOpens: 2)
            _ = try? flaky.nextFrame()  // the unplug: the next two opens fail
            flaky.close()
            return flaky
        }
        let strict = ReopeningVideoSource(wrapping: unplugged())
        #expect(throws: VideoSourceError.self) { try strict.open() }

        var lost = 0
        let patient = ReopeningVideoSource(
            wrapping: unplugged(), backoff: .init(initial: .milliseconds(20), maximum: .milliseconds(20)),
            pollInterval: .milliseconds(5), placeholder: .init(interval: .milliseconds(10), width: 32, height: 32),
            retriesFirstOpen: true) { event in if case .lost = event { lost += 1 } }
        try patient.open()
        let frames = try Self.pull(patient, for: .milliseconds(200))
        #expect(lost == 1)
        #expect(patient.reopenCount == 1)
        // Gray placeholders first (no picture yet), then the pattern.
        #expect(frames.first.map { $0.luma(x: 0, y: 0) == 16 && $0.u(x: 0, y: 0) == 128 } == true)
        #expect(frames.count > 10)
    }
}
