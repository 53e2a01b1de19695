import IntercomPlatform
/// A camera stand-in: `TestPattern` frames at a fixed size and rate. In real time the band carries the
/// wall-clock milliseconds of capture (for glass-to-glass latency); with synthetic timing it carries the
/// capture time in milliseconds, so every frame is reproducible.
public final class TestPatternSource: VideoSource {
    public let pattern: TestPattern
    public let frameRate: FrameRate
    public let timing: SourceTiming
    /// Whether frames carry the timestamp band.
    public let drawsTimestampBand: Bool
    private var pacer: FramePacer
    private var isOpen = false
    private var index: UInt64 = 0

    public init(
        width: Int = 640, height: Int = 480, frameRate: FrameRate = FrameRate(30),
        timing: SourceTiming = .realtime, drawsTimestampBand: Bool = true
    ) {
        pattern = TestPattern(width: width, height: height)
        self.frameRate = frameRate
        self.timing = timing
        self.drawsTimestampBand = drawsTimestampBand
        pacer = FramePacer(timing: timing, interval: frameRate.frameInterval)
    }

    public var format: VideoFormat? {
        isOpen ? VideoFormat(width: pattern.width, height: pattern.height, frameRate: frameRate) : nil
    }

    public func open() throws(VideoSourceError) { isOpen = true }

    public func close() { isOpen = false }

    /// Frame numbers keep counting across close/open, like a camera's sequence counter would not, so
    /// tests can see that frames after a reopen are new frames.
    public func nextFrame() throws(VideoSourceError) -> I420Frame? {
        guard isOpen else { throw .notOpen }
        let captureTime = pacer.nextCaptureTime()
        let bandValue: UInt64? = switch (drawsTimestampBand, timing) {
        case (false, _): nil
        case (true, .realtime): MonotonicClock.wallClockMilliseconds()
        case (true, .synthetic): UInt64(max(0, captureTime.wholeMilliseconds))
        }
        defer { index += 1 }
        return pattern.frame(index: index, bandValue: bandValue, captureTime: captureTime)
    }
}
