import CLibcameraCapture
import Glibc
import IntercomPlatform

/// A camera driven through libcamera (Raspberry Pi camera modules behind the Pi's ISP; vimc in the
/// harness): one stream of the `VideoRecording` role in the first of `preferredFormats` the camera accepts,
/// at the requested size and frame rate (`FrameDurationLimits` when the camera takes it, otherwise by handing
/// early frames straight back). libcamera completes
/// requests on its own thread; the C shim queues them and each `nextFrame()` waits at most one frame
/// interval for one, copies it into I420 and requeues the request at once.
///
/// Single owner on the capture thread. A disconnected camera, a camera that is not there at `open()` and no
/// frame within `frameTimeout` all throw errors whose `isDeviceLost` is true (ENODEV, EIO), so
/// `ReopeningVideoSource` closes and reopens it.
public final class LibcameraVideoSource: VideoSource {
    /// libcamera's camera id (`cam -l` shows it); nil: the first camera libcamera lists.
    public let cameraID: String?
    public let requestedWidth: Int
    public let requestedHeight: Int
    public let requestedFrameRate: FrameRate
    /// The format asked for first; the camera may answer with another (validate() adjusts), which is used
    /// when it is in this list too.
    public let preferredFormats: [LibcameraPixelFormat]
    public let frameTimeout: Duration

    /// The camera's answer; nil until `open()` succeeded.
    public private(set) var negotiated: LibcameraNegotiatedFormat?
    /// Frames the camera skipped, from gaps in `FrameMetadata::sequence` and buffers completed with an error,
    /// summed over the life of this object.
    public private(set) var droppedFrames: UInt64 = 0
    /// Frames handed straight back because they came sooner than `requestedFrameRate` allows, on cameras that
    /// ignore `FrameDurationLimits` (converting them would only cost CPU the encoder needs).
    public private(set) var pacedFrames: UInt64 = 0

    private var capture: OpaquePointer?
    private var lastSequence: UInt32?
    private var lastFrameAt: Duration = .zero
    private var pacer: CaptureRatePacer
    private var blankFrame: I420Frame?

    public init(
        cameraID: String? = nil, width: Int = 640, height: Int = 480, frameRate: FrameRate = FrameRate(30),
        preferredFormats: [LibcameraPixelFormat] = LibcameraPixelFormat.preferenceOrder,
        frameTimeout: Duration = .seconds(2)
    ) {
        precondition(width > 0 && height > 0 && !preferredFormats.isEmpty, "invalid capture request")
        self.cameraID = cameraID
        self.requestedWidth = width
        self.requestedHeight = height
        self.requestedFrameRate = frameRate
        self.preferredFormats = preferredFormats
        self.frameTimeout = frameTimeout
        self.pacer = CaptureRatePacer(rate: frameRate)
    }

    deinit { close() }

    public var format: VideoFormat? {
        negotiated.map { VideoFormat(width: $0.width, height: $0.height, frameRate: $0.frameRate) }
    }

    public func open() throws(VideoSourceError) {
        close()
        var request = intercom_libcamera_request(
            role: Int32(INTERCOM_LIBCAMERA_ROLE_VIDEO_RECORDING), fourcc: preferredFormats[0].rawValue,
            width: UInt32(requestedWidth), height: UInt32(requestedHeight),
            frame_duration_us: LibcameraFrameTiming.frameDurationMicroseconds(requestedFrameRate))
        var configuration = intercom_libcamera_configuration()
        var failedCall: UnsafePointer<CChar>?
        var handle: OpaquePointer?
        let opened = intercom_libcamera_open(cameraID, &request, &handle, &configuration, &failedCall)
        guard opened == 0, let handle else {
            throw .system(LibcameraCall.error(opened, failedCall: failedCall, camera: cameraID ?? "first camera"))
        }
        capture = handle
        let id = String(cString: intercom_libcamera_camera_id(handle))
        guard let pixelFormat = LibcameraPixelFormat(rawValue: configuration.fourcc), preferredFormats.contains(pixelFormat)
        else {
            close()
            throw .system(SystemCallError(
                call: "CameraConfiguration::validate", errno: EINVAL, path: "libcamera:\(id)",
                detail: "the camera answered \(LibcameraPixelFormat.fourccText(configuration.fourcc)); we convert "
                    + preferredFormats.map(\.description).joined(separator: ", ")))
        }
        let started = intercom_libcamera_start(handle, &failedCall)
        guard started == 0 else {
            close()
            throw .system(LibcameraCall.error(started, failedCall: failedCall, camera: id))
        }
        negotiated = LibcameraNegotiatedFormat(
            cameraID: id, pixelFormat: pixelFormat, width: Int(configuration.width), height: Int(configuration.height),
            stride: Int(configuration.stride), bufferCount: Int(configuration.buffer_count),
            frameRateApplied: configuration.frame_duration_applied != 0, frameRate: requestedFrameRate)
        lastSequence = nil
        pacer = CaptureRatePacer(rate: requestedFrameRate)
        lastFrameAt = MonotonicClock.now()
    }

    public func nextFrame() throws(VideoSourceError) -> I420Frame? {
        guard let capture, let format = negotiated else { throw .notOpen }
        guard var completed = try nextCompleted(capture, camera: format.cameraID) else {
            let waited = MonotonicClock.now() - lastFrameAt
            guard waited < frameTimeout else {
                throw .system(SystemCallError(
                    call: "Camera::requestCompleted", errno: EIO, path: "libcamera:\(format.cameraID)",
                    detail: "no frame within \(frameTimeout)"))
            }
            return nil
        }
        // A consumer that fell behind gets the newest picture, like the V4L2 source: older completed requests
        // go straight back (their frames show up in droppedFrames through the sequence gap).
        while completed.pending > 0 {
            try requeue(completed, capture, camera: format.cameraID)
            guard let newer = try nextCompleted(capture, camera: format.cameraID) else { return nil }
            completed = newer
        }
        lastFrameAt = MonotonicClock.now()
        droppedFrames += LibcameraFrameTiming.droppedFrames(previous: lastSequence, current: completed.sequence)
        lastSequence = completed.sequence
        let captureTime: Duration = completed.sensor_timestamp_ns > 0
            ? .nanoseconds(completed.sensor_timestamp_ns) : MonotonicClock.now()
        if !format.frameRateApplied, !pacer.admit(captureTime) {
            pacedFrames += 1
            try requeue(completed, capture, camera: format.cameraID)
            return nil
        }
        var frame: I420Frame?
        var conversionError: PixelConversionError?
        if completed.error == 0 {
            var decoded = blankFrame ?? I420Frame(width: format.width, height: format.height)
            blankFrame = decoded
            decoded.captureTime = captureTime
            decoded.sequence = UInt64(completed.sequence)
            do {
                try LibcameraFrameDecoder.decode(planes(of: completed), format: format, into: &decoded)
                frame = decoded
            } catch {
                conversionError = error
            }
        } else {
            droppedFrames += 1
        }
        try requeue(completed, capture, camera: format.cameraID)
        if let conversionError { throw .conversion(conversionError) }
        return frame
    }

    /// Stops the camera, frees its buffers and releases it; safe to call repeatedly and when never opened.
    public func close() {
        if let capture { intercom_libcamera_close(capture) }
        capture = nil
        negotiated = nil
        blankFrame = nil
    }

    private func nextCompleted(_ capture: OpaquePointer, camera: String) throws(VideoSourceError) -> intercom_libcamera_frame? {
        var frame = intercom_libcamera_frame()
        var failedCall: UnsafePointer<CChar>?
        let timeout = LibcameraFrameTiming.pollTimeoutMilliseconds(requestedFrameRate, limit: frameTimeout)
        let result = intercom_libcamera_next_frame(capture, timeout, &frame, &failedCall)
        guard result >= 0 else { throw .system(LibcameraCall.error(result, failedCall: failedCall, camera: camera)) }
        return result == 1 ? frame : nil
    }

    private func requeue(_ frame: intercom_libcamera_frame, _ capture: OpaquePointer, camera: String) throws(VideoSourceError) {
        var failedCall: UnsafePointer<CChar>?
        let result = intercom_libcamera_requeue(capture, frame.cookie, &failedCall)
        guard result == 0 else { throw .system(LibcameraCall.error(result, failedCall: failedCall, camera: camera)) }
    }

    private func planes(of frame: intercom_libcamera_frame) -> [UnsafeRawBufferPointer] {
        var frame = frame
        let pointers = withUnsafeBytes(of: &frame.planes) { Array($0.bindMemory(to: UnsafePointer<UInt8>?.self)) }
        let lengths = withUnsafeBytes(of: &frame.plane_lengths) { Array($0.bindMemory(to: UInt32.self)) }
        return (0..<Int(frame.plane_count)).map { UnsafeRawBufferPointer(start: pointers[$0], count: Int(lengths[$0])) }
    }
}
