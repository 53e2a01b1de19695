import Glibc
import IntercomPlatform

/// Wraps a source and simulates a camera being unplugged: after `failAfterFrames` frames, `nextFrame()`
/// fails with `errno` (ENODEV by default, what `VIDIOC_DQBUF` reports on a removed UVC device) until the
/// source is closed; the next `failingOpens` opens fail the same way (the node is gone); then it works again.
public final class FaultInjectingVideoSource: VideoSource {
    public let inner: any VideoSource
    public let failAfterFrames: Int
    public let failingOpens: Int
    public let errno: Int32
    /// How many unplugs are still to come (1 by default: one fault, then healthy).
    public private(set) var faultsRemaining: Int
    /// Frames delivered since the last successful open.
    public private(set) var framesSinceOpen = 0
    /// Errors thrown so far (from `nextFrame` and `open`).
    public private(set) var injectedFailures = 0
    private var unplugged = false
    private var opensToFail = 0

    public init(
        wrapping inner: any VideoSource, failAfterFrames: Int, failingOpens: Int = 0, errno: Int32? = nil,
        faults: Int = 1
    ) {
        self.inner = inner
        self.failAfterFrames = failAfterFrames
        self.failingOpens = failingOpens
        // ENODEV (an unplugged camera) by default; a default argument cannot name it in release builds
        // because the macro is visible through several C modules.
        self.errno = errno ?? ENODEV
        faultsRemaining = faults
    }

    public var format: VideoFormat? { unplugged ? nil : inner.format }

    public func open() throws(VideoSourceError) {
        if opensToFail > 0 {
            opensToFail -= 1
            injectedFailures += 1
            throw .system(SystemCallError(call: "open", errno: errno, detail: "injected fault"))
        }
        try inner.open()
        unplugged = false
        framesSinceOpen = 0
    }

    public func nextFrame() throws(VideoSourceError) -> I420Frame? {
        if !unplugged, faultsRemaining > 0, framesSinceOpen >= failAfterFrames {
            unplugged = true
            faultsRemaining -= 1
            opensToFail = failingOpens
        }
        if unplugged {
            injectedFailures += 1
            throw .system(SystemCallError(call: "VIDIOC_DQBUF", errno: errno, detail: "injected fault"))
        }
        let frame = try inner.nextFrame()
        if frame != nil { framesSinceOpen += 1 }
        return frame
    }

    public func close() { inner.close() }
}
