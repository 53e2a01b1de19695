import CV4L2Shims
import CV4L2
import Glibc
import IntercomPlatform

/// One buffer plane of the negotiated format (`v4l2_plane_pix_format`, or `v4l2_pix_format` for single-planar).
public struct V4L2PlaneLayout: Sendable, Equatable {
    public var bytesPerLine: Int
    public var sizeImage: Int
}

/// The capture format a driver accepted: `VIDIOC_S_FMT` (`fmt.pix`, or `fmt.pix_mp` on a multi-planar device)
/// and `VIDIOC_S_PARM`.
public struct V4L2NegotiatedFormat: Sendable, Equatable {
    public var bufferType: V4L2BufferType
    public var pixelFormat: PixelFormat
    /// The driver's size, which may differ from the requested one (drivers round to what they support).
    public var width: Int
    public var height: Int
    /// Bytes per row of the first plane (`bytesperline`).
    public var bytesPerLine: Int
    /// One entry per buffer plane: one, except for NV12M (two) and YUV420M (three).
    public var planes: [V4L2PlaneLayout]
    /// The driver's frame rate after `S_PARM`; the requested one when the driver cannot set it.
    public var frameRate: FrameRate
    /// Why this format (`V4L2FormatChoice.reason`).
    public var reason = ""
}

/// Sets the first format of `V4L2FormatChoice`'s order that the driver takes.
enum V4L2FormatNegotiation {
    static func negotiate(
        fd: Int32, device: String, bufferType: V4L2BufferType, preferred: [PixelFormat],
        width: Int, height: Int, frameRate: FrameRate
    ) throws(SystemCallError) -> V4L2NegotiatedFormat {
        let listing = try V4L2Inventory.formats(fd: fd, bufferType: bufferType, device: device)
        let offered = listing.map(\.pixelFormat)
        let choice = V4L2FormatChoice.choose(
            preferred: preferred, offered: listing, bufferType: bufferType, width: width, height: height,
            framesPerSecond: Double(frameRate.numerator) / Double(frameRate.denominator))
        for pixelFormat in choice.order {
            let accepted = switch bufferType {
            case .singlePlanar: try setSinglePlanar(fd: fd, device: device, pixelFormat, width: width, height: height)
            case .multiPlanar: try setMultiPlanar(fd: fd, device: device, pixelFormat, width: width, height: height)
            }
            // A driver that lacks the format substitutes its own instead of failing: try the next one.
            guard var format = accepted else { continue }
            format.frameRate = try setFrameRate(fd: fd, device: device, bufferType: bufferType, frameRate)
            format.reason = pixelFormat == choice.order.first ? choice.reason : "\(pixelFormat): the driver refused \(choice.order[0])"
            return format
        }
        let names = preferred.map(\.description).joined(separator: ", ")
        let listed = offered.map(\.description).joined(separator: ", ")
        throw SystemCallError(
            call: "ioctl(VIDIOC_S_FMT)", errno: EINVAL, path: device,
            detail: "the \(bufferType) device offers none of the formats [\(names)] (it lists [\(listed)]; "
                + "we convert NV12, YU12, YUYV, MJPEG, and NV12M, YM12 on multi-planar devices)")
    }

    private static func setSinglePlanar(
        fd: Int32, device: String, _ pixelFormat: PixelFormat, width: Int, height: Int
    ) throws(SystemCallError) -> V4L2NegotiatedFormat? {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(width)
        format.fmt.pix.height = UInt32(height)
        format.fmt.pix.pixelformat = pixelFormat.rawValue
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format, device: device)
        guard format.fmt.pix.pixelformat == pixelFormat.rawValue else { return nil }
        let plane = V4L2PlaneLayout(bytesPerLine: Int(format.fmt.pix.bytesperline), sizeImage: Int(format.fmt.pix.sizeimage))
        return V4L2NegotiatedFormat(
            bufferType: .singlePlanar, pixelFormat: pixelFormat,
            width: Int(format.fmt.pix.width), height: Int(format.fmt.pix.height),
            bytesPerLine: plane.bytesPerLine, planes: [plane], frameRate: FrameRate(30))
    }

    /// `fmt.pix_mp` with `num_planes` set to what the format needs; a driver that answers with another plane
    /// count (or another format) is skipped like a substitution.
    private static func setMultiPlanar(
        fd: Int32, device: String, _ pixelFormat: PixelFormat, width: Int, height: Int
    ) throws(SystemCallError) -> V4L2NegotiatedFormat? {
        let planeCount = V4L2FormatSelection.planeCount(of: pixelFormat)
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE.rawValue
        format.fmt.pix_mp.width = UInt32(width)
        format.fmt.pix_mp.height = UInt32(height)
        format.fmt.pix_mp.pixelformat = pixelFormat.rawValue
        format.fmt.pix_mp.field = V4L2_FIELD_NONE.rawValue
        format.fmt.pix_mp.num_planes = UInt8(planeCount)
        try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format, device: device)
        let reply = format.fmt.pix_mp
        guard reply.pixelformat == pixelFormat.rawValue, Int(reply.num_planes) == planeCount else { return nil }
        let planes = withUnsafeBytes(of: reply.plane_fmt) { raw in
            raw.bindMemory(to: v4l2_plane_pix_format.self).prefix(planeCount).map {
                V4L2PlaneLayout(bytesPerLine: Int($0.bytesperline), sizeImage: Int($0.sizeimage))
            }
        }
        return V4L2NegotiatedFormat(
            bufferType: .multiPlanar, pixelFormat: pixelFormat,
            width: Int(reply.width), height: Int(reply.height),
            bytesPerLine: planes[0].bytesPerLine, planes: planes, frameRate: FrameRate(30))
    }

    /// `S_PARM` with `timeperframe` = 1 / rate; returns the rate the driver settled on.
    private static func setFrameRate(
        fd: Int32, device: String, bufferType: V4L2BufferType, _ frameRate: FrameRate
    ) throws(SystemCallError) -> FrameRate {
        var parameters = v4l2_streamparm()
        parameters.type = bufferType.rawValue
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
