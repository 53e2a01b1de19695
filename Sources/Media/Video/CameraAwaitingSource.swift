import IntercomPlatform

/// `video.source = "auto"` on a board whose camera is not there yet: the stand-in's frames (the test
/// pattern), with a look for the camera every `checkInterval`. As soon as `findCamera` returns one that
/// opens, its frames replace the stand-in's, within the running call. A camera that later goes away fails
/// like any camera (device lost), which the `ReopeningVideoSource` around this one handles.
public final class CameraAwaitingSource: VideoSource {
    public let checkInterval: Duration
    /// The camera, once found and opened.
    public private(set) var camera: (any VideoSource)?
    private let standIn: any VideoSource
    private let findCamera: () -> (any VideoSource)?
    /// Called on the capture thread each time a found camera opened and replaced the stand-in (the log line).
    private let onCameraOpened: () -> Void
    private var nextCheck = Duration.zero

    public init(standIn: any VideoSource, checkInterval: Duration = .seconds(2),
                onCameraOpened: @escaping () -> Void = {}, findCamera: @escaping () -> (any VideoSource)?) {
        precondition(checkInterval > .zero, "check interval must be positive")
        self.standIn = standIn
        self.checkInterval = checkInterval
        self.onCameraOpened = onCameraOpened
        self.findCamera = findCamera
    }

    public var format: VideoFormat? { camera?.format ?? standIn.format }

    /// Opens the camera if it is there now, else the stand-in.
    public func open() throws(VideoSourceError) {
        close()
        nextCheck = MonotonicClock.now()
        if tryCamera() { return }
        try standIn.open()
    }

    public func nextFrame() throws(VideoSourceError) -> I420Frame? {
        if let camera { return try camera.nextFrame() }
        if MonotonicClock.now() >= nextCheck, tryCamera() {
            standIn.close()
            return try camera?.nextFrame()
        }
        return try standIn.nextFrame()
    }

    public func close() {
        camera?.close()
        camera = nil
        standIn.close()
    }

    /// One look: true when a camera was found and opened (a camera that is there but fails to open is
    /// looked at again next interval).
    private func tryCamera() -> Bool {
        nextCheck = MonotonicClock.now() + checkInterval
        guard let found = findCamera() else { return false }
        do {
            try found.open()
            camera = found
            onCameraOpened()
            return true
        } catch {
            found.close()
            return false
        }
    }
}
