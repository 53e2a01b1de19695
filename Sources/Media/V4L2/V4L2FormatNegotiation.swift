import CIntercomShims
import CV4L2
import Glibc
import IntercomPlatform

/// The capture format a driver accepted: `VIDIOC_S_FMT` (single-plane `v4l2_pix_format`) and `VIDIOC_S_PARM`.
public struct V4L2NegotiatedFormat: Sendable, Equatable {
    public var pixelFormat: PixelFormat
    /// The driver's size, which may differ from the requested one (drivers round to what they support).
    public var width: Int
    public var height: Int
    /// Bytes per row of the first plane (`v4l2_pix_format.bytesperline`).
    public var bytesPerLine: Int
    /// The driver's frame rate after `S_PARM`; the requested one when the driver cannot set it.
    public var frameRate: FrameRate
}

/// Picks the first pixel format of a preference list the driver takes at the requested size.
enum V4L2FormatNegotiation {
    /// The formats we convert to I420 ourselves, cheapest first: NV12 and YU12 are 4:2:0 already.
    static let supported: [PixelFormat] = [.nv12, .yuv420, .yuyv]

    static func negotiate(
        fd: Int32, device: String, preferred: [PixelFormat], width: Int, height: Int, frameRate: FrameRate
    ) throws(SystemCallError) -> V4L2NegotiatedFormat {
        for pixelFormat in preferred where supported.contains(pixelFormat) {
            var format = v4l2_format()
            format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            format.fmt.pix.width = UInt32(width)
            format.fmt.pix.height = UInt32(height)
            format.fmt.pix.pixelformat = pixelFormat.rawValue
            format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
            try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format, device: device)
            // A driver that lacks the format substitutes its own instead of failing: try the next one.
            guard format.fmt.pix.pixelformat == pixelFormat.rawValue else { continue }
            return V4L2NegotiatedFormat(
                pixelFormat: pixelFormat,
                width: Int(format.fmt.pix.width), height: Int(format.fmt.pix.height),
                bytesPerLine: Int(format.fmt.pix.bytesperline),
                frameRate: try setFrameRate(fd: fd, device: device, frameRate))
        }
        let names = preferred.map(\.description).joined(separator: ", ")
        throw SystemCallError(call: "ioctl(VIDIOC_S_FMT)", errno: EINVAL, path: device,
                              detail: "the device offers none of the formats [\(names)] (we convert NV12, YU12, YUYV)")
    }

    /// `S_PARM` with `timeperframe` = 1 / rate; returns the rate the driver settled on.
    private static func setFrameRate(fd: Int32, device: String, _ frameRate: FrameRate) throws(SystemCallError) -> FrameRate {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_G_PARM, "VIDIOC_G_PARM", &parameters, device: device)
        guard parameters.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 else { return frameRate }
        parameters.parm.capture.timeperframe.numerator = UInt32(frameRate.denominator)
        parameters.parm.capture.timeperframe.denominator = UInt32(frameRate.numerator)
        try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_S_PARM, "VIDIOC_S_PARM", &parameters, device: device)
        let interval = parameters.parm.capture.timeperframe
        guard interval.numerator > 0, interval.denominator > 0 else { return frameRate }
        return FrameRate(Int(interval.denominator), Int(interval.numerator))
    }
}
