import CV4L2

/// Which V4L2 capture API a device speaks: the single-planar `V4L2_BUF_TYPE_VIDEO_CAPTURE` (one buffer per
/// frame, `fmt.pix`) or the multi-planar `V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE` (`fmt.pix_mp`, each buffer an
/// array of `struct v4l2_plane`), which many SoC cameras and ISPs offer exclusively.
public enum V4L2BufferType: Sendable, Equatable, CustomStringConvertible {
    case singlePlanar
    case multiPlanar

    /// The API to use for a device with these `VIDIOC_QUERYCAP` capabilities (`device_caps` when the driver
    /// sets `V4L2_CAP_DEVICE_CAPS`, else `capabilities`). Single-planar wins when both are offered, so such a
    /// device keeps the path it always had; nil when the node cannot stream video capture at all.
    public static func forCapabilities(_ capabilities: UInt32, deviceCaps: UInt32) -> V4L2BufferType? {
        let caps = capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? deviceCaps : capabilities
        guard caps & UInt32(V4L2_CAP_STREAMING) != 0 else { return nil }
        if caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 { return .singlePlanar }
        if caps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0 { return .multiPlanar }
        return nil
    }

    /// The `enum v4l2_buf_type` value for `v4l2_format.type`, `v4l2_buffer.type`, `STREAMON` and friends.
    public var rawValue: UInt32 {
        switch self {
        case .singlePlanar: V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        case .multiPlanar: V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE.rawValue
        }
    }

    public var description: String {
        switch self {
        case .singlePlanar: "single-planar"
        case .multiPlanar: "multi-planar"
        }
    }
}
