/// What `intercomd bench` measures and with which settings.
public struct BenchPlan: Sendable {
    /// One clip size and the CBR bitrate used for it on both sides.
    public struct VideoSize: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var kbps: Int

        public init(width: Int, height: Int, kbps: Int) {
            self.width = width
            self.height = height
            self.kbps = kbps
        }

        public var label: String { "\(width)x\(height)" }
    }

    /// 320x240 at 300 kb/s, 640x480 at 800, 1280x720 at 1500 (performance-anchors.md §6).
    public static let defaultSizes = [
        VideoSize(width: 320, height: 240, kbps: 300), VideoSize(width: 640, height: 480, kbps: 800),
        VideoSize(width: 1280, height: 720, kbps: 1500),
    ]

    public var clipDirectory: String
    public var sizes: [VideoSize] = defaultSizes
    /// Frames per clip and per encode pass.
    public var frames = 300
    /// Alternating raw/ours passes per measurement; the report gives the median and the range.
    public var repeats = 3
    /// `VP8E_SET_CPUUSED` (negative: fixed speed, comparable across machines).
    public var cpuUsed: Int32 = -12
    public var threads = 1
    /// Built `bench/vp8bench.c` and `bench/opusbench.c`; nil skips the raw side.
    public var vp8benchPath: String?
    public var opusbenchPath: String?
    /// Built `Tests/bench/mjpegbench.c`; nil measures our MJPEG decoding only.
    public var mjpegbenchPath: String?
    /// The webcam sizes the MJPEG decode comparison uses, and its frames per clip.
    public var mjpegSizes: [(width: Int, height: Int)] = [(640, 480), (1280, 720)]
    public var mjpegFrames = 120
    public var opusKbps = 32
    public var opusComplexity = 10
    public var audioSeconds = 60
    /// Frames measured per size in the real-time capture → encode run (0 skips it).
    public var latencyFrames = 150
    /// How this process was started, printed as the command of our side.
    public var invocation: String

    public init(clipDirectory: String, invocation: String) {
        self.clipDirectory = clipDirectory
        self.invocation = invocation
    }

    public func videoConfiguration(for size: VideoSize) -> VP8EncoderConfiguration {
        .benchmarkBaseline(
            width: size.width, height: size.height, targetBitrateKbps: size.kbps, cpuUsed: cpuUsed, threads: threads)
    }

    /// The `vp8bench` arguments for `size` (usage: in W H FRAMES CPU_USED THREADS KBPS).
    public func vp8benchArguments(for size: VideoSize) -> [String] {
        [BenchClips.videoPath(directory: clipDirectory, width: size.width, height: size.height),
         "\(size.width)", "\(size.height)", "\(frames)", "\(cpuUsed)", "\(threads)", "\(size.kbps)"]
    }

    /// The `opusbench` arguments (usage: in.wav CHANNELS KBPS COMPLEXITY voip).
    public var opusbenchArguments: [String] {
        [BenchClips.audioPath(directory: clipDirectory), "1", "\(opusKbps)", "\(opusComplexity)", "voip"]
    }
}
