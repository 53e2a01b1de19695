/// libvpx VP8 realtime settings. The defaults follow libwebrtc's `LibvpxVp8Encoder` (research notes §4):
/// one-pass CBR, quantizer 2…56, undershoot 100 % / overshoot 15 %, buffer 500/600/1000 ms, frame dropping
/// at 30 % buffer, keyframes only on request or every 3000 frames, fixed speed −12, one thread up to VGA.
/// `benchmarkBaseline` is exactly what `bench/vp8bench.c` sets, for like-for-like cost comparisons.
public struct VP8EncoderConfiguration: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var framesPerSecond: Int
    /// `rc_target_bitrate`, kbit/s.
    public var targetBitrateKbps: Int
    /// `VP8E_SET_CPUUSED`: negative = fixed speed |v| (1…16), repeatable across machines; positive = libvpx
    /// adapts the speed to measured encode time.
    public var cpuUsed: Int32 = -12
    /// `g_threads`.
    public var threads: Int = 1
    public var minQuantizer: Int = 2
    public var maxQuantizer: Int = 56
    public var undershootPercent: Int = 100
    public var overshootPercent: Int = 15
    /// `rc_buf_initial_sz`, `rc_buf_optimal_sz`, `rc_buf_sz` in milliseconds.
    public var bufferInitialMilliseconds: Int = 500
    public var bufferOptimalMilliseconds: Int = 600
    public var bufferMilliseconds: Int = 1000
    /// `rc_dropframe_thresh`: skip a frame when the buffer falls below this percentage (0 never drops).
    public var dropFrameThreshold: Int = 30
    /// `kf_max_dist` with `VPX_KF_AUTO`: we rely on PLI/FIR for keyframes.
    public var keyframeMaxDistance: Int = 3000
    /// `g_error_resilient`: only useful with temporal layers.
    public var errorResilient: Bool = false
    /// `VP8E_SET_STATIC_THRESHOLD`.
    public var staticThreshold: UInt32 = 1
    /// `VP8E_SET_TOKEN_PARTITIONS` as a power of two: 0 = `VP8_ONE_TOKENPARTITION` (one partition).
    public var tokenPartitionsLog2: Int32 = 0
    /// `VP8E_SET_NOISE_SENSITIVITY` (0 off; libwebrtc uses 1, the Y-only denoiser, on ARM).
    public var noiseSensitivity: UInt32 = 1
    /// `VP8E_SET_MAX_INTRA_BITRATE_PCT`: caps a keyframe at this percentage of the per-frame budget so it
    /// does not burst; nil leaves libvpx's default (no cap).
    public var maxIntraBitratePercent: UInt32? = 300

    public init(width: Int, height: Int, framesPerSecond: Int = 30, targetBitrateKbps: Int) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.targetBitrateKbps = targetBitrateKbps
    }

    /// The settings of `bench/vp8bench.c` (which follow libwebrtc but turn off the denoiser, frame dropping
    /// and the keyframe cap), so "pipeline ÷ raw libvpx" compares the same encoder work.
    public static func benchmarkBaseline(
        width: Int, height: Int, targetBitrateKbps: Int, cpuUsed: Int32 = -12, threads: Int = 1
    ) -> VP8EncoderConfiguration {
        var configuration = VP8EncoderConfiguration(width: width, height: height, targetBitrateKbps: targetBitrateKbps)
        configuration.cpuUsed = cpuUsed
        configuration.threads = threads
        configuration.dropFrameThreshold = 0
        configuration.noiseSensitivity = 0
        configuration.maxIntraBitratePercent = nil
        return configuration
    }

    /// The frame duration in the encoder's 1/90000 s timebase.
    var frameDurationTicks: UInt {
        UInt(90_000 / max(1, framesPerSecond))
    }
}
