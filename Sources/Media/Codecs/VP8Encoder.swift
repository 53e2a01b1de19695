import CVPXShims
import CVPX

/// libvpx VP8 in realtime mode (one-pass CBR, no lookahead): one I420 frame in, zero or one compressed frame
/// out (zero when rate control drops the frame). Mirrors `vpx_codec_enc_init` / `vpx_codec_encode` /
/// `vpx_codec_get_cx_data`; `deinit` calls `vpx_codec_destroy`.
///
/// Not `Sendable`: the codec context is single-owner state. Create and use it on one dedicated encoder
/// thread; `vpx_codec_encode` blocks for milliseconds and must never run on the cooperative pool.
public final class VP8Encoder {
    /// The settings in force (the bitrate follows `setBitrate`).
    public private(set) var configuration: VP8EncoderConfiguration
    /// Added to every RTP timestamp (RFC 3550 §5.1: random per stream).
    public let rtpTimestampOffset: UInt32
    /// Frames passed to `encode` so far.
    public private(set) var framesSubmitted = 0
    private let context: UnsafeMutablePointer<vpx_codec_ctx_t>
    private var codecConfig: vpx_codec_enc_cfg_t
    private var image = vpx_image_t()
    private var firstCaptureTime: Duration?
    private var lastPresentationTime: vpx_codec_pts_t = -1

    public init(
        configuration: VP8EncoderConfiguration, rtpTimestampOffset: UInt32 = .random(in: .min ... .max)
    ) throws(VPXError) {
        try Self.validate(configuration)
        var codecConfig = vpx_codec_enc_cfg_t()
        try VPXError.check("vpx_codec_enc_config_default", nil, vpx_codec_enc_config_default(vpx_codec_vp8_cx(), &codecConfig, 0))
        Self.apply(configuration, to: &codecConfig)
        // Every failure is handled before the stored properties are set: once they are, a throwing class
        // initializer runs `deinit`, which would destroy the context a second time.
        let context = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
        let result = CIntercomShims_vpx_codec_enc_init(context, vpx_codec_vp8_cx(), &codecConfig, 0)
        guard result == VPX_CODEC_OK else {
            // On failure libvpx has already destroyed the context; its detail string is a static literal.
            let error = VPXError(call: "vpx_codec_enc_init", result: result, context: context)
            context.deallocate()
            throw error
        }
        do {
            try Self.applyControls(configuration, to: context)
        } catch {
            vpx_codec_destroy(context)
            context.deallocate()
            throw error
        }
        self.configuration = configuration
        self.rtpTimestampOffset = rtpTimestampOffset
        self.codecConfig = codecConfig
        self.context = context
    }

    deinit {
        vpx_codec_destroy(context)
        context.deallocate()
    }

    /// Encodes `frame`. `forceKeyframe` (`VPX_EFLAG_FORCE_KF`, for PLI/FIR or a new viewer) makes this very
    /// frame a keyframe. Returns nothing when rate control dropped the frame.
    public func encode(_ frame: I420Frame, forceKeyframe: Bool = false) throws(VPXError) -> [EncodedFrame] {
        guard frame.width == configuration.width, frame.height == configuration.height else {
            throw VPXError(
                call: "vpx_codec_encode", code: Int32(bitPattern: VPX_CODEC_INVALID_PARAM.rawValue),
                message: "frame size does not match the encoder",
                detail: "got \(frame.width)x\(frame.height), configured \(configuration.width)x\(configuration.height)")
        }
        let presentationTime = nextPresentationTime(for: frame.captureTime)
        let flags: vpx_enc_frame_flags_t = forceKeyframe ? vpx_enc_frame_flags_t(VPX_EFLAG_FORCE_KF) : 0
        let result = frame.withPlanes { y, u, v in
            wrap(y: y, u: u, v: v, lumaStride: frame.lumaStride, chromaStride: frame.chromaStride)
            return vpx_codec_encode(
                context, &image, presentationTime, configuration.frameDurationTicks, flags, UInt(VPX_DL_REALTIME))
        }
        image.planes = (nil, nil, nil, nil)
        framesSubmitted += 1
        try VPXError.check("vpx_codec_encode", context, result)
        return collectPackets(captureTime: frame.captureTime)
    }

    /// Changes the target bitrate of the running encoder (`vpx_codec_enc_config_set`), e.g. from REMB.
    public func setBitrate(kbps: Int) throws(VPXError) {
        guard kbps > 0 else {
            throw VPXError(
                call: "vpx_codec_enc_config_set", code: Int32(bitPattern: VPX_CODEC_INVALID_PARAM.rawValue),
                message: "invalid bitrate", detail: "\(kbps) kbit/s")
        }
        var updated = codecConfig
        updated.rc_target_bitrate = UInt32(kbps)
        try VPXError.check("vpx_codec_enc_config_set", context, vpx_codec_enc_config_set(context, &updated))
        codecConfig = updated
        configuration.targetBitrateKbps = kbps
    }

    // MARK: - Helpers

    /// Presentation time in the 1/90000 timebase, relative to the first frame; strictly increasing even if
    /// two frames carry the same capture time.
    private func nextPresentationTime(for captureTime: Duration) -> vpx_codec_pts_t {
        let first = firstCaptureTime ?? captureTime
        firstCaptureTime = first
        let ticks = max((captureTime - first).ticks(clockRate: 90_000), lastPresentationTime + 1)
        lastPresentationTime = ticks
        return ticks
    }

    /// Points the reusable `vpx_image_t` at the frame's planes (libvpx copies them during encode).
    private func wrap(
        y: UnsafeBufferPointer<UInt8>, u: UnsafeBufferPointer<UInt8>, v: UnsafeBufferPointer<UInt8>,
        lumaStride: Int, chromaStride: Int
    ) {
        let luma = UnsafeMutablePointer(mutating: y.baseAddress!)
        vpx_img_wrap(&image, VPX_IMG_FMT_I420, UInt32(configuration.width), UInt32(configuration.height), 1, luma)
        image.planes = (luma, UnsafeMutablePointer(mutating: u.baseAddress!), UnsafeMutablePointer(mutating: v.baseAddress!), nil)
        image.stride = (Int32(lumaStride), Int32(chromaStride), Int32(chromaStride), 0)
    }

    private func collectPackets(captureTime: Duration) -> [EncodedFrame] {
        var frames: [EncodedFrame] = []
        var iterator: vpx_codec_iter_t?
        let rtpTimestamp = rtpTimestampOffset &+ UInt32(truncatingIfNeeded: captureTime.ticks(clockRate: 90_000))
        while let packet = vpx_codec_get_cx_data(context, &iterator) {
            guard packet.pointee.kind == VPX_CODEC_CX_FRAME_PKT else { continue }
            let data = packet.pointee.data.frame
            frames.append(EncodedFrame(
                bytes: Array(UnsafeRawBufferPointer(start: data.buf, count: data.sz)),
                captureTime: captureTime,
                rtpTimestamp: rtpTimestamp,
                isKeyframe: data.flags & vpx_codec_frame_flags_t(VPX_FRAME_IS_KEY) != 0))
        }
        return frames
    }

    private static func validate(_ configuration: VP8EncoderConfiguration) throws(VPXError) {
        func invalid(_ detail: String) -> VPXError {
            VPXError(
                call: "vpx_codec_enc_init", code: Int32(bitPattern: VPX_CODEC_INVALID_PARAM.rawValue),
                message: "invalid VP8 encoder configuration", detail: detail)
        }
        guard configuration.width > 0, configuration.height > 0, configuration.width <= 16_383,
              configuration.height <= 16_383
        else { throw invalid("size \(configuration.width)x\(configuration.height)") }
        guard (1...240).contains(configuration.framesPerSecond) else {
            throw invalid("\(configuration.framesPerSecond) frames per second")
        }
        guard configuration.targetBitrateKbps > 0 else { throw invalid("bitrate \(configuration.targetBitrateKbps)") }
        guard (1...16).contains(configuration.threads) else { throw invalid("\(configuration.threads) threads") }
    }

    private static func apply(_ configuration: VP8EncoderConfiguration, to config: inout vpx_codec_enc_cfg_t) {
        config.g_w = UInt32(configuration.width)
        config.g_h = UInt32(configuration.height)
        config.g_timebase = vpx_rational(num: 1, den: 90_000)
        config.g_threads = UInt32(configuration.threads)
        config.g_lag_in_frames = 0
        config.g_pass = VPX_RC_ONE_PASS
        config.g_error_resilient = configuration.errorResilient ? vpx_codec_er_flags_t(VPX_ERROR_RESILIENT_DEFAULT) : 0
        config.rc_end_usage = VPX_CBR
        config.rc_resize_allowed = 0
        config.rc_target_bitrate = UInt32(configuration.targetBitrateKbps)
        config.rc_min_quantizer = UInt32(configuration.minQuantizer)
        config.rc_max_quantizer = UInt32(configuration.maxQuantizer)
        config.rc_undershoot_pct = UInt32(configuration.undershootPercent)
        config.rc_overshoot_pct = UInt32(configuration.overshootPercent)
        config.rc_buf_initial_sz = UInt32(configuration.bufferInitialMilliseconds)
        config.rc_buf_optimal_sz = UInt32(configuration.bufferOptimalMilliseconds)
        config.rc_buf_sz = UInt32(configuration.bufferMilliseconds)
        config.rc_dropframe_thresh = UInt32(configuration.dropFrameThreshold)
        config.kf_mode = VPX_KF_AUTO
        config.kf_max_dist = UInt32(configuration.keyframeMaxDistance)
    }

    private static func applyControls(
        _ configuration: VP8EncoderConfiguration, to context: UnsafeMutablePointer<vpx_codec_ctx_t>
    ) throws(VPXError) {
        try VPXError.check("vpx_codec_control(VP8E_SET_CPUUSED)", context,
            vpx_codec_control_VP8E_SET_CPUUSED(context, Int32(VP8E_SET_CPUUSED.rawValue), configuration.cpuUsed))
        try VPXError.check("vpx_codec_control(VP8E_SET_STATIC_THRESHOLD)", context,
            vpx_codec_control_VP8E_SET_STATIC_THRESHOLD(
                context, Int32(VP8E_SET_STATIC_THRESHOLD.rawValue), configuration.staticThreshold))
        try VPXError.check("vpx_codec_control(VP8E_SET_TOKEN_PARTITIONS)", context,
            vpx_codec_control_VP8E_SET_TOKEN_PARTITIONS(
                context, Int32(VP8E_SET_TOKEN_PARTITIONS.rawValue), configuration.tokenPartitionsLog2))
        try VPXError.check("vpx_codec_control(VP8E_SET_NOISE_SENSITIVITY)", context,
            vpx_codec_control_VP8E_SET_NOISE_SENSITIVITY(
                context, Int32(VP8E_SET_NOISE_SENSITIVITY.rawValue), configuration.noiseSensitivity))
        if let percent = configuration.maxIntraBitratePercent {
            try VPXError.check("vpx_codec_control(VP8E_SET_MAX_INTRA_BITRATE_PCT)", context,
                vpx_codec_control_VP8E_SET_MAX_INTRA_BITRATE_PCT(
                    context, Int32(VP8E_SET_MAX_INTRA_BITRATE_PCT.rawValue), percent))
        }
    }
}

@available(*, unavailable, message: "a VP8Encoder belongs to one encoder thread")
extension VP8Encoder: Sendable {}
