/// What the camera is doing, as `/health`, the status line and `/metrics` report it.
public enum CameraCondition: Sendable, Equatable {
    /// Frames come from the camera (or no camera is configured: the test pattern, a file).
    case working
    /// The camera went away mid-run (unplug, USB reset, a stream that stopped): calls get its last picture,
    /// dimmed, while it is looked for every 2 s.
    case lost
    /// The configured camera could not be opened at all (a named device missing, a format it cannot give):
    /// calls get the test pattern; each later media start tries the camera again.
    case failed
}
