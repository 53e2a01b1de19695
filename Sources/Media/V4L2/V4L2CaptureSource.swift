import CV4L2Shims
import CV4L2
import Glibc
import IntercomPlatform

/// A V4L2 camera streamed through memory-mapped buffers (the `io_mmap` path of the V4L2 capture example):
/// open, `QUERYCAP`, `S_FMT` + `S_PARM`, `REQBUFS`/`QUERYBUF`/`mmap`, `QBUF` all, `STREAMON`; then each
/// `nextFrame()` is `poll` → `DQBUF` → copy into I420 → `QBUF` the buffer straight back. Devices that only
/// speak the multi-planar API (`V4L2_CAP_VIDEO_CAPTURE_MPLANE`) go the same way with `fmt.pix_mp` and
/// per-plane buffers; `negotiated.bufferType` says which API `open()` chose.
///
/// MJPEG (what USB webcams send at full rate) is decoded by TurboJPEG on this thread; a corrupt JPEG is dropped
/// and counted in `corruptFrames`, like a buffer the driver flagged `V4L2_BUF_FLAG_ERROR`.
///
/// With a `V4L2CameraMemory`, the first successful open remembers which physical camera `configuredPath`
/// was (`V4L2DeviceIdentity`); later opens use the node that camera has now, so a webcam the kernel
/// renumbered after a replug is found again, and another camera that took its old number is not used.
///
/// Single owner on the capture thread. No good frame within `frameTimeout`, `POLLERR` or `ENODEV` throw an
/// error whose `isDeviceLost` is true, so `ReopeningVideoSource` closes and reopens it.
public final class V4L2CaptureSource: VideoSource {
    /// The path the configuration names (`/dev/video0`, `/dev/v4l/by-id/…`).
    public let configuredPath: String
    /// The node opened last: `configuredPath`, or where the remembered camera is now.
    public private(set) var path: String
    public let memory: V4L2CameraMemory?
    public let requestedWidth: Int
    public let requestedHeight: Int
    public let requestedFrameRate: FrameRate
    /// The formats we may use, in order of preference among equals; `V4L2FormatChoice` ranks them by what
    /// the device lists for the requested size and rate. NV12, YU12, YUYV and MJPEG on any device, NV12M and
    /// YM12 on multi-planar ones (others are ignored).
    public let preferredFormats: [PixelFormat]
    /// Native YUV first (no decoding), MJPEG last.
    public static let defaultFormats: [PixelFormat] = [.nv12, .yuv420, .nv12m, .yuv420m, .yuyv, .mjpeg]
    public let frameTimeout: Duration
    public let bufferCount: Int

    /// The driver's format (its size may differ from the requested one); nil until `open()` succeeded.
    public private(set) var negotiated: V4L2NegotiatedFormat?
    /// Frames the driver skipped, from gaps in `v4l2_buffer.sequence`, summed over the life of this object.
    public private(set) var droppedFrames: UInt64 = 0
    /// Frames that could not be shown (a JPEG that does not decode, a buffer flagged as damaged), summed over
    /// the life of this object.
    public private(set) var corruptFrames: UInt64 = 0
    /// The last corrupt frame's problem, for the log.
    public private(set) var lastCorruption: String?

    private var fd: Int32 = -1
    private var buffers: V4L2MappedBuffers?
    /// The `v4l2_buffer` (and plane array) reused for every `DQBUF` and `QBUF` of the open stream.
    private var slot: V4L2BufferSlot?
    private var streaming = false
    private var lastSequence: UInt32?
    private var blankFrame: I420Frame?
    private var jpegDecoder: JPEGDecoder?
    /// Set when the camera runs faster than requested (webcams offer 15 and 30 fps, not 5): frames not due
    /// go straight back to the driver, before any conversion or JPEG decode.
    private var pacer: CaptureRatePacer?
    /// Frames skipped by `pacer` (not drops: the camera was asked for fewer), over the life of this object.
    public private(set) var pacedFrames: UInt64 = 0
    private let sysfs: String
    /// When the last good frame (or the stream start) was: corrupt frames alone for `frameTimeout` mean a
    /// broken camera, handled like a lost one.
    private var lastGoodFrame = Duration.zero

    public init(
        path: String, width: Int = 640, height: Int = 480, frameRate: FrameRate = FrameRate(30),
        preferredFormats: [PixelFormat] = V4L2CaptureSource.defaultFormats,
        frameTimeout: Duration = .seconds(2), bufferCount: Int = 4, memory: V4L2CameraMemory? = nil,
        sysfs: String = "/sys/class/video4linux"
    ) {
        precondition(width > 0 && height > 0 && bufferCount >= 2, "invalid capture request")
        self.configuredPath = path
        self.path = path
        self.memory = memory
        self.sysfs = sysfs
        self.requestedWidth = width
        self.requestedHeight = height
        self.requestedFrameRate = frameRate
        self.preferredFormats = preferredFormats
        self.frameTimeout = frameTimeout
        self.bufferCount = bufferCount
    }

    deinit { close() }

    public var format: VideoFormat? {
        negotiated.map { VideoFormat(width: $0.width, height: $0.height, frameRate: $0.frameRate) }
    }

    public func open() throws(VideoSourceError) {
        close()
        do throws(SystemCallError) {
            path = try currentPath()
            fd = try retryingOnInterrupt("open", path: path) { Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
            let bufferType = try checkCapabilities()
            let chosen = try V4L2FormatNegotiation.negotiate(
                fd: fd, device: path, bufferType: bufferType, preferred: preferredFormats,
                width: requestedWidth, height: requestedHeight, frameRate: requestedFrameRate)
            if chosen.pixelFormat == .mjpeg {
                do {
                    jpegDecoder = try JPEGDecoder()
                } catch {
                    throw SystemCallError(call: error.call, errno: ENOMEM, path: path, detail: error.message)
                }
            }
            buffers = try V4L2MappedBuffers(
                fd: fd, count: bufferCount, bufferType: bufferType, planeCount: chosen.planes.count, device: path)
            slot = V4L2BufferSlot(bufferType: bufferType, planeCount: chosen.planes.count)
            for index in 0..<(buffers?.mappings.count ?? 0) { try queue(index: UInt32(index)) }
            var type = bufferType.rawValue
            try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type, device: path)
            streaming = true
            negotiated = chosen
            pacer = chosen.frameRate.framesPerSecond > requestedFrameRate.framesPerSecond * 1.1
                ? CaptureRatePacer(rate: requestedFrameRate) : nil
            lastSequence = nil
            lastGoodFrame = MonotonicClock.now()
            if let memory, memory.remembered == nil, let identity = V4L2DeviceIdentity.of(devicePath: path, sysfs: sysfs) {
                memory.remember(identity)
            }
        } catch {
            close()
            throw .system(error)
        }
    }

    /// Where to open: the configured path while it is (or may be) the remembered camera, else the node that
    /// camera has now; ENODEV while it is nowhere (unplugged), which `ReopeningVideoSource` waits out.
    private func currentPath() throws(SystemCallError) -> String {
        guard let identity = memory?.remembered else { return configuredPath }
        if V4L2DeviceIdentity.of(devicePath: configuredPath, sysfs: sysfs)?.isSameCamera(as: identity) == true {
            return configuredPath
        }
        if let moved = V4L2DeviceIdentity.locate(identity, sysfs: sysfs) { return moved }
        throw SystemCallError(call: "open", errno: ENODEV, path: configuredPath, detail: "camera \(identity) is not connected")
    }

    public func nextFrame() throws(VideoSourceError) -> I420Frame? {
        guard streaming, let format = negotiated, let buffers else { throw .notOpen }
        let buffer: V4L2DequeuedBuffer
        do {
            guard let dequeued = try dequeue() else { return nil }
            buffer = dequeued
        } catch {
            throw .system(error)
        }
        countDrops(sequence: buffer.sequence)
        if pacer?.admit(captureTime(of: buffer)) == false {
            pacedFrames += 1
            do {
                try queue(index: buffer.index)
            } catch {
                throw .system(error)
            }
            return nil
        }
        var frame: I420Frame?
        var conversionError: PixelConversionError?
        if buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 {
            countCorrupt("the driver flagged buffer \(buffer.index) as damaged (V4L2_BUF_FLAG_ERROR)")
        } else {
            // Starting from a shared blank frame makes the per-frame cost one buffer copy; building a fresh
            // I420Frame fills it element by element, which a debug build under QEMU cannot do 30 times a second.
            var decoded = blankFrame ?? I420Frame(width: format.width, height: format.height)
            blankFrame = decoded
            decoded.captureTime = captureTime(of: buffer)
            decoded.sequence = UInt64(buffer.sequence)
            do {
                try V4L2FrameDecoder.decode(
                    buffers.bytes(index: Int(buffer.index), planes: buffer.planes), format: format, jpeg: jpegDecoder,
                    into: &decoded)
                frame = decoded
            } catch where format.pixelFormat == .mjpeg {
                countCorrupt(error.detail)  // a damaged JPEG is the camera's or the cable's fault, not ours
            } catch {
                conversionError = error
            }
        }
        // The copy is done: hand the buffer straight back so the driver never runs short.
        do {
            try queue(index: buffer.index)
        } catch {
            throw .system(error)
        }
        if let conversionError { throw .conversion(conversionError) }
        if frame != nil {
            lastGoodFrame = MonotonicClock.now()
        } else if MonotonicClock.now() - lastGoodFrame > frameTimeout {
            throw .system(SystemCallError(call: "VIDIOC_DQBUF", errno: EIO, path: path,
                                          detail: "only corrupt frames for \(frameTimeout): \(lastCorruption ?? "")"))
        }
        return frame
    }

    private func countCorrupt(_ problem: String) {
        corruptFrames += 1
        lastCorruption = problem
    }

    /// poll, then DQBUF until the queue is empty, keeping only the newest buffer and requeueing older ones at
    /// once: a consumer that fell behind gets the latest picture instead of a stale one (the skipped frames
    /// show up in `droppedFrames`). nil when nothing was ready after all (EAGAIN).
    private func dequeue() throws(SystemCallError) -> V4L2DequeuedBuffer? {
        guard let slot else { return nil }
        guard try waitForFrame() else { return nil }
        var newest: V4L2DequeuedBuffer?
        while true {
            slot.reset(index: 0)
            do {
                try slot.perform(fd: fd, CIntercomShims_VIDIOC_DQBUF, "VIDIOC_DQBUF", device: path)
            } catch where error.errno == EAGAIN {
                return newest
            }
            let buffer = slot.dequeued
            if let older = newest { try queue(index: older.index) }
            newest = buffer
        }
    }

    /// STREAMOFF, munmap, close; safe to call repeatedly and when never opened.
    public func close() {
        if streaming, let slot {
            var type = slot.bufferType.rawValue
            try? V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type, device: path)
            streaming = false
        }
        buffers?.unmap()
        buffers = nil
        slot = nil
        if fd >= 0 {
            _ = Glibc.close(fd)  // never retried: see `retryingOnInterrupt`
            fd = -1
        }
        negotiated = nil
        pacer = nil
        blankFrame = nil
        jpegDecoder = nil
    }

    /// The capture API the device speaks (single-planar when it offers both).
    private func checkCapabilities() throws(SystemCallError) -> V4L2BufferType {
        var capability = v4l2_capability()
        do {
            try V4L2Ioctl.perform(fd, CIntercomShims_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &capability, device: path)
        } catch where error.errno == ENOTTY {
            throw SystemCallError(call: error.call, errno: ENOTTY, path: path, detail: "not a V4L2 device")
        }
        guard let bufferType = V4L2BufferType.forCapabilities(capability.capabilities, deviceCaps: capability.device_caps)
        else {
            let caps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
                ? capability.device_caps : capability.capabilities
            throw SystemCallError(call: "ioctl(VIDIOC_QUERYCAP)", errno: EINVAL, path: path,
                                  detail: "not a video capture device with streaming I/O (device caps 0x\(String(caps, radix: 16)))")
        }
        return bufferType
    }

    /// QBUF of buffer `index` with every plane (the driver fills in `bytesused` when it hands it back).
    private func queue(index: UInt32) throws(SystemCallError) {
        guard let slot else { return }
        slot.reset(index: index)
        try slot.perform(fd: fd, CIntercomShims_VIDIOC_QBUF, "VIDIOC_QBUF", device: path)
    }

    /// True when a buffer is ready. A timeout or an error condition counts as a lost device (errno EIO or
    /// ENODEV), because a streaming camera that stops delivering has to be reopened either way.
    private func waitForFrame() throws(SystemCallError) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let timeout = Int32(frameTimeout / .milliseconds(1))
        let ready = try retryingOnInterrupt("poll", path: path) { poll(&descriptor, 1, timeout) }
        guard ready > 0 else {
            throw SystemCallError(call: "poll", errno: EIO, path: path, detail: "no frame within \(frameTimeout)")
        }
        if descriptor.revents & Int16(POLLNVAL | POLLHUP) != 0 {
            throw SystemCallError(call: "poll", errno: ENODEV, path: path, detail: "device gone (revents 0x\(String(descriptor.revents, radix: 16)))")
        }
        if descriptor.revents & Int16(POLLERR) != 0 {
            throw SystemCallError(call: "poll", errno: EIO, path: path, detail: "POLLERR: the driver stopped streaming")
        }
        return descriptor.revents & Int16(POLLIN) != 0
    }

    private func countDrops(sequence: UInt32) {
        if let last = lastSequence, sequence &- last > 1, sequence &- last < UInt32.max / 2 {
            droppedFrames += UInt64(sequence &- last - 1)
        }
        lastSequence = sequence
    }

    /// The driver's stamp when it is on `CLOCK_MONOTONIC` (what `MonotonicClock` reads); otherwise now. Never
    /// later than now: vivid stamps frames on its ideal schedule, which can run ahead of the dequeue (seen
    /// as negative capture → encoded latencies in `camera-test` under QEMU).
    private func captureTime(of buffer: V4L2DequeuedBuffer) -> Duration {
        let now = MonotonicClock.now()
        let kind = buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK)
        guard kind == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC) else { return now }
        return min(.seconds(Int64(buffer.timestamp.tv_sec)) + .microseconds(Int64(buffer.timestamp.tv_usec)), now)
    }
}
