/// `[video]`: what the device films and how it encodes it (SYSTEM.md §5).
public struct VideoSettings: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// The first V4L2 capture device, or the test pattern when there is none.
        case auto
        case testPattern
        case device(path: String)
        case y4mFile(path: String)
        /// A camera through libcamera (Raspberry Pi camera modules): the first one, or the one with this id
        /// (`intercomd probe` and `cam -l` list the ids).
        case libcamera(cameraID: String?)
    }

    /// Which of a V4L2 camera's formats to capture. USB webcams offer raw YUYV and MJPEG; `auto` takes raw
    /// YUV when the camera gives it at the configured size and rate, else MJPEG. Forcing MJPEG saves USB
    /// bandwidth when several devices share a hub; forcing raw YUV saves the decode where the rate allows.
    public enum CaptureFormat: String, Sendable, Equatable, CaseIterable {
        case auto
        case mjpeg
        case yuv
    }

    /// The one camera when `sources` is not given (`source`).
    public var source: Source = .auto
    /// `sources`: named cameras the caller can switch between (issue #22); the first is filmed when media
    /// starts. Empty when the config names one `source`. See `cameras`.
    public var sources: [NamedSource] = []
    public var captureFormat: CaptureFormat = .auto
    public var width = 640
    public var height = 480
    public var fps = 30
    public var bitrateMinKbps = 150
    public var bitrateStartKbps = 800
    public var bitrateMaxKbps = 1500
    public var encoderSpeed = -12
    public var encoderThreads = 1

    /// The defaults (no `[video]` table).
    public init() {}

    init(_ reader: ConfigReader?) {
        guard let reader else { return }
        if let text = reader.string("source") {
            if let source = Self.source(text) {
                self.source = source
            } else {
                reader.report("source", "expected \"auto\", \"testpattern\", a device path such as \"/dev/video0\", "
                    + "\"libcamera\", \"libcamera:<camera id>\" or a .y4m file path, got \"\(text)\"")
            }
        }
        sources = Self.namedSources(reader)
        if !sources.isEmpty, reader.contains("source") {
            reader.report("sources", "give either \"source\" (one camera) or \"sources\" (named cameras), not both")
        }
        if let text = reader.string("capture_format") {
            if let format = CaptureFormat(rawValue: text) {
                captureFormat = format
            } else {
                reader.report("capture_format", "expected \"auto\", \"mjpeg\" or \"yuv\", got \"\(text)\"")
            }
        }
        width = reader.integer("width", in: 160...1920) ?? width
        height = reader.integer("height", in: 120...1080) ?? height
        fps = reader.integer("fps", in: 1...60) ?? fps
        bitrateMinKbps = reader.integer("bitrate_min_kbps", in: 50...8000) ?? bitrateMinKbps
        bitrateStartKbps = reader.integer("bitrate_start_kbps", in: 50...8000) ?? bitrateStartKbps
        bitrateMaxKbps = reader.integer("bitrate_max_kbps", in: 50...8000) ?? bitrateMaxKbps
        encoderSpeed = reader.integer("encoder_speed", in: -16...(-1)) ?? encoderSpeed
        encoderThreads = reader.integer("encoder_threads", in: 1...4) ?? encoderThreads
        if width % 2 != 0 || height % 2 != 0 { reader.report("width", "width and height must be even (4:2:0 video)") }
        if !(bitrateMinKbps <= bitrateStartKbps && bitrateStartKbps <= bitrateMaxKbps) {
            let key = ["bitrate_start_kbps", "bitrate_min_kbps", "bitrate_max_kbps"].first(where: reader.contains) ?? "bitrate_start_kbps"
            reader.report(key, "needs bitrate_min_kbps ≤ bitrate_start_kbps ≤ bitrate_max_kbps, got "
                + "\(bitrateMinKbps) ≤ \(bitrateStartKbps) ≤ \(bitrateMaxKbps)")
        }
        reader.rejectUnknownKeys()
    }

    /// A `source` value as the config file writes it (also `intercomd camera-test --source`).
    public static func source(_ text: String) -> Source? {
        switch text {
        case "auto": return .auto
        case "testpattern", "test-pattern": return .testPattern
        case "libcamera": return .libcamera(cameraID: nil)
        case _ where text.hasPrefix("libcamera:"):
            let id = String(text.dropFirst("libcamera:".count))
            return id.isEmpty || id.contains("\0") ? nil : .libcamera(cameraID: id)
        case _ where text.hasPrefix("/dev/"): return .device(path: text)
        case _ where text.lowercased().hasSuffix(".y4m") && !text.contains("\0"): return .y4mFile(path: text)
        default: return nil
        }
    }
}
