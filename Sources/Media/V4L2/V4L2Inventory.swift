import CV4L2Shims
import CV4L2
import Glibc
import IntercomPlatform

/// What `VIDIOC_QUERYCAP` and the `VIDIOC_ENUM_*` ioctls say about the capture devices of this machine.
public struct V4L2CaptureDevice: Sendable, Equatable {
    public struct Format: Sendable, Equatable {
        public var pixelFormat: PixelFormat
        public var description: String
        public var sizes: [FrameSize]
        /// The driver takes any size up to the one listed (`V4L2_FRMSIZE_TYPE_STEPWISE`/`CONTINUOUS`).
        public var isStepwise = false

        public init(pixelFormat: PixelFormat, description: String, sizes: [FrameSize], isStepwise: Bool = false) {
            self.pixelFormat = pixelFormat
            self.description = description
            self.sizes = sizes
            self.isStepwise = isStepwise
        }
    }

    public struct FrameSize: Sendable, Equatable {
        public var width: Int
        public var height: Int
        /// Frame rates in frames per second (from `VIDIOC_ENUM_FRAMEINTERVALS`), highest first.
        public var framesPerSecond: [Double]

        public init(width: Int, height: Int, framesPerSecond: [Double]) {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
        }
    }

    public var path: String
    public var card: String
    public var driver: String
    public var busInfo: String
    /// Single-planar (`V4L2_CAP_VIDEO_CAPTURE`) or multi-planar (`V4L2_CAP_VIDEO_CAPTURE_MPLANE`); the
    /// formats are those listed for this buffer type.
    public var bufferType: V4L2BufferType = .singlePlanar
    public var formats: [Format]
}

public enum V4L2Inventory {
    /// Every node under `directory` named `video*` that is a video capture device (single- or multi-planar)
    /// with streaming I/O.
    /// Nodes that are not capture devices (metadata, output, codecs) are skipped; nodes that fail to open are
    /// reported in `failures` so `probe` can say why (e.g. permission denied) instead of hiding them.
    public static func captureDevices(in directory: String = "/dev") -> (devices: [V4L2CaptureDevice], failures: [SystemCallError]) {
        var devices: [V4L2CaptureDevice] = []
        var failures: [SystemCallError] = []
        for path in videoNodes(in: directory) {
            do {
                if let device = try describe(path: path) { devices.append(device) }
            } catch {
                failures.append(error)
            }
        }
        return (devices, failures)
    }

    static func videoNodes(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = cString(fromTuple: entry.pointee.d_name)
            if name.hasPrefix("video"), Int(name.dropFirst(5)) != nil { names.append(name) }
        }
        return names.sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }.map { "\(directory)/\($0)" }
    }

    /// nil when the node is not a streaming capture device.
    public static func describe(path: String) throws(SystemCallError) -> V4L2CaptureDevice? {
        let fd = try retryingOnInterrupt("open", path: path) { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        defer { close(fd) }
        var capability = v4l2_capability()
        try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &capability, device: path)
        guard let bufferType = V4L2BufferType.forCapabilities(capability.capabilities, deviceCaps: capability.device_caps)
        else { return nil }
        return V4L2CaptureDevice(
            path: path,
            card: cString(fromTuple: capability.card),
            driver: cString(fromTuple: capability.driver),
            busInfo: cString(fromTuple: capability.bus_info),
            bufferType: bufferType,
            formats: try formats(fd: fd, bufferType: bufferType, device: path)
        )
    }

    /// Every format of an open device with its sizes and rates (also what `V4L2FormatChoice` chooses from).
    static func formats(
        fd: Int32, bufferType: V4L2BufferType, device: String
    ) throws(SystemCallError) -> [V4L2CaptureDevice.Format] {
        var formats: [V4L2CaptureDevice.Format] = []
        for (pixelFormat, description) in try V4L2FormatEnumeration.list(fd: fd, bufferType: bufferType, device: device) {
            let (sizes, isStepwise) = try sizes(fd: fd, pixelFormat: pixelFormat, device: device)
            formats.append(.init(pixelFormat: pixelFormat, description: description, sizes: sizes, isStepwise: isStepwise))
        }
        return formats
    }

    private static func sizes(
        fd: Int32, pixelFormat: PixelFormat, device: String
    ) throws(SystemCallError) -> (sizes: [V4L2CaptureDevice.FrameSize], isStepwise: Bool) {
        var sizes: [V4L2CaptureDevice.FrameSize] = []
        for index in 0..<256 {
            var size = v4l2_frmsizeenum()
            size.index = UInt32(index)
            size.pixel_format = pixelFormat.rawValue
            guard try V4L2Ioctl.enumerate(fd, CIntercomShims_VIDIOC_ENUM_FRAMESIZES, "VIDIOC_ENUM_FRAMESIZES", &size, device: device)
            else { break }
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                let (width, height) = (size.discrete.width, size.discrete.height)
                sizes.append(.init(width: Int(width), height: Int(height),
                                   framesPerSecond: try rates(fd: fd, pixelFormat: pixelFormat, width: width, height: height, device: device)))
            } else {
                // Stepwise or continuous: report the largest size with its rates; that is what a config would pick.
                let (width, height) = (size.stepwise.max_width, size.stepwise.max_height)
                sizes.append(.init(width: Int(width), height: Int(height),
                                   framesPerSecond: try rates(fd: fd, pixelFormat: pixelFormat, width: width, height: height, device: device)))
                return (sizes, true)
            }
        }
        return (sizes, false)
    }

    private static func rates(
        fd: Int32, pixelFormat: PixelFormat, width: UInt32, height: UInt32, device: String
    ) throws(SystemCallError) -> [Double] {
        var rates: [Double] = []
        for index in 0..<64 {
            var interval = v4l2_frmivalenum()
            interval.index = UInt32(index)
            interval.pixel_format = pixelFormat.rawValue
            interval.width = width
            interval.height = height
            guard try V4L2Ioctl.enumerate(
                fd, CIntercomShims_VIDIOC_ENUM_FRAMEINTERVALS, "VIDIOC_ENUM_FRAMEINTERVALS", &interval, device: device)
            else { break }
            let fraction = interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue ? interval.discrete : interval.stepwise.min
            if fraction.numerator > 0 { rates.append(Double(fraction.denominator) / Double(fraction.numerator)) }
            if interval.type != V4L2_FRMIVAL_TYPE_DISCRETE.rawValue { break }
        }
        return rates.sorted(by: >)
    }
}
