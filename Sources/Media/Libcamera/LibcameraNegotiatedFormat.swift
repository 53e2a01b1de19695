/// What the camera agreed to after `CameraConfiguration::validate()`: the size may differ from the request
/// (vimc rounds to multiples of 6), the format is one `LibcameraPixelFormat`.
public struct LibcameraNegotiatedFormat: Sendable, Equatable {
    public var cameraID: String
    public var pixelFormat: LibcameraPixelFormat
    public var width: Int
    public var height: Int
    /// Bytes per line of the first plane (`StreamConfiguration::stride`).
    public var stride: Int
    public var bufferCount: Int
    /// Whether the camera takes `FrameDurationLimits`; without it the camera runs at its own rate.
    public var frameRateApplied: Bool
    public var frameRate: FrameRate

    public init(
        cameraID: String, pixelFormat: LibcameraPixelFormat, width: Int, height: Int, stride: Int, bufferCount: Int,
        frameRateApplied: Bool, frameRate: FrameRate
    ) {
        self.cameraID = cameraID
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.stride = stride
        self.bufferCount = bufferCount
        self.frameRateApplied = frameRateApplied
        self.frameRate = frameRate
    }
}
