/// A producer of I420 frames, owned and driven by one dedicated capture thread (`VideoCaptureThread`).
///
/// Pull model: the thread calls `nextFrame()` in a loop; each call blocks for at most about one frame
/// interval (a V4L2 `poll` timeout, a pacing sleep), so the thread can notice a stop request between calls.
/// Sources are deliberately not `Sendable`: they are created on the capture thread and never leave it.
public protocol VideoSource: AnyObject {
    /// What the source delivers; nil until `open()` has succeeded (a Y4M file says so in its header).
    var format: VideoFormat? { get }
    /// Acquires the device or file. Calling it again after `close()` reopens.
    func open() throws(VideoSourceError)
    /// The next frame, or nil when none arrived in time (call again). Throws when the source broke; a
    /// `VideoSourceError.isDeviceLost` error means close, wait and reopen (see `ReopeningVideoSource`).
    func nextFrame() throws(VideoSourceError) -> I420Frame?
    /// Releases the device or file. Safe to call when not open.
    func close()
}
