import CV4L2Shims
import CV4L2
import IntercomPlatform

/// `VIDIOC_ENUM_FMT` for one buffer type: the pixel formats a device offers, with the driver's descriptions.
enum V4L2FormatEnumeration {
    static func list(
        fd: Int32, bufferType: V4L2BufferType, device: String
    ) throws(SystemCallError) -> [(pixelFormat: PixelFormat, description: String)] {
        var formats: [(pixelFormat: PixelFormat, description: String)] = []
        // Up to 256 entries, a guard against a driver that never ends the list: vivid alone lists 80+, with
        // its multi-plane formats (NM12, YM12) last.
        for index in 0..<256 {
            var description = v4l2_fmtdesc()
            description.index = UInt32(index)
            description.type = bufferType.rawValue
            guard try V4L2Ioctl.enumerate(fd, CIntercomShims_VIDIOC_ENUM_FMT, "VIDIOC_ENUM_FMT", &description, device: device)
            else { break }
            formats.append((PixelFormat(rawValue: description.pixelformat), cString(fromTuple: description.description)))
        }
        return formats
    }
}
