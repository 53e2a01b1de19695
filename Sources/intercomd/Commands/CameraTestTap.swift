import Foundation
import Media

/// Sits between the capture thread and the camera under test: counts frames and keeps the last one (for the
/// snapshot), and afterwards reads what the source itself knows (a V4L2 camera's driver format, why it was
/// chosen, and its dropped and corrupt frames).
///
/// `@unchecked Sendable`: the capture thread creates and drives the wrapped source; the command reads it
/// only through `lock`, and reads the source's own counters after the capture thread has been joined.
final class CameraTestTap: @unchecked Sendable {
    struct Summary {
        var frames = 0
        var firstCapture: Duration?
        var lastCapture: Duration?
        var sourceLine: String?
        var droppedByDriver: UInt64?
        var corrupt: UInt64?
        var corruptionExample: String?
    }

    private let lock = NSLock()
    private var source: (any VideoSource)?
    private var frames = 0
    private var firstCapture: Duration?
    private var lastCapture: Duration?
    private var last: I420Frame?
    /// `describe()` at the first frame, while the source is open.
    private var openLine: String?

    func watch(_ inner: any VideoSource) -> any VideoSource {
        lock.withLock { source = inner }
        return Tapped(inner: inner, tap: self)
    }

    fileprivate func saw(_ frame: I420Frame) {
        lock.withLock {
            frames += 1
            if openLine == nil { openLine = describe() }
            firstCapture = firstCapture ?? frame.captureTime
            lastCapture = frame.captureTime
            last = frame
        }
    }

    func lastFrame() -> I420Frame? { lock.withLock { last } }

    /// What the source is: as it was at the first frame, or (when none came) as it is now.
    func sourceLine() -> String? { lock.withLock { openLine ?? describe() } }

    /// Called with `lock` held.
    private func describe() -> String? {
        guard let source else { return nil }
        if let camera = source as? V4L2CaptureSource {
            guard let format = camera.negotiated else { return "V4L2 \(camera.path): not open" }
            return "V4L2 \(camera.path): \(format.pixelFormat) \(format.width)x\(format.height) at "
                + "\(format.frameRate.numerator)/\(format.frameRate.denominator) fps (\(format.reason))"
        }
        guard let format = source.format else { return "\(type(of: source)): not open" }
        return "\(type(of: source)): \(format.width)x\(format.height)"
    }

    func summary() -> Summary {
        var summary = lock.withLock {
            Summary(frames: frames, firstCapture: firstCapture, lastCapture: lastCapture)
        }
        summary.sourceLine = sourceLine()
        lock.withLock {
            if let camera = source as? V4L2CaptureSource {
                summary.droppedByDriver = camera.droppedFrames
                summary.corrupt = camera.corruptFrames
                summary.corruptionExample = camera.lastCorruption
            }
        }
        return summary
    }

    /// The wrapped source, unchanged but for the tap.
    private final class Tapped: VideoSource {
        let inner: any VideoSource
        let tap: CameraTestTap

        init(inner: any VideoSource, tap: CameraTestTap) {
            self.inner = inner
            self.tap = tap
        }

        var format: VideoFormat? { inner.format }
        func open() throws(VideoSourceError) { try inner.open() }
        func close() { inner.close() }

        func nextFrame() throws(VideoSourceError) -> I420Frame? {
            let frame = try inner.nextFrame()
            if let frame { tap.saw(frame) }
            return frame
        }
    }
}
