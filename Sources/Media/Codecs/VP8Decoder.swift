import CVPXShims
import CVPX

/// libvpx VP8 decoding (`vpx_codec_dec_init` / `vpx_codec_decode` / `vpx_codec_get_frame`), used by tests
/// and tools to check what the encoder produced. Single owner, like `VP8Encoder`.
public final class VP8Decoder {
    private let context: UnsafeMutablePointer<vpx_codec_ctx_t>

    public init(threads: Int = 1) throws(VPXError) {
        // `context` is set only on success: a throwing class initializer runs `deinit` once every stored
        // property is set, which would destroy the context twice.
        let context = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
        var config = vpx_codec_dec_cfg_t(threads: UInt32(max(1, threads)), w: 0, h: 0)
        let result = CIntercomShims_vpx_codec_dec_init(context, vpx_codec_vp8_dx(), &config, 0)
        guard result == VPX_CODEC_OK else {
            let error = VPXError(call: "vpx_codec_dec_init", result: result, context: context)
            context.deallocate()
            throw error
        }
        self.context = context
    }

    deinit {
        vpx_codec_destroy(context)
        context.deallocate()
    }

    /// Decodes one compressed frame; returns the pictures it produced (one for VP8), stamped `captureTime`.
    public func decode(_ bytes: [UInt8], captureTime: Duration = .zero) throws(VPXError) -> [I420Frame] {
        let result = bytes.withUnsafeBufferPointer { buffer in
            vpx_codec_decode(context, buffer.baseAddress, UInt32(buffer.count), nil, 0)
        }
        try VPXError.check("vpx_codec_decode", context, result)
        var frames: [I420Frame] = []
        var iterator: vpx_codec_iter_t?
        while let image = vpx_codec_get_frame(context, &iterator) {
            frames.append(Self.copy(image.pointee, captureTime: captureTime))
        }
        return frames
    }

    /// The decoded picture of `frame`, if it produced one.
    public func decode(_ frame: EncodedFrame) throws(VPXError) -> I420Frame? {
        try decode(frame.bytes, captureTime: frame.captureTime).first
    }

    private static func copy(_ image: vpx_image_t, captureTime: Duration) -> I420Frame {
        var frame = I420Frame(width: Int(image.d_w), height: Int(image.d_h), captureTime: captureTime)
        let width = frame.width
        let chromaWidth = frame.chromaWidth
        let chromaHeight = frame.chromaHeight
        frame.withMutablePlanes { y, u, v in
            let sources = [image.planes.0!, image.planes.1!, image.planes.2!]
            let strides = [Int(image.stride.0), Int(image.stride.1), Int(image.stride.2)]
            for row in 0..<Int(image.d_h) {
                (y.baseAddress! + row * width).update(from: sources[0] + row * strides[0], count: width)
            }
            for (plane, index) in [(u, 1), (v, 2)] {
                for row in 0..<chromaHeight {
                    (plane.baseAddress! + row * chromaWidth)
                        .update(from: sources[index] + row * strides[index], count: chromaWidth)
                }
            }
        }
        return frame
    }
}

@available(*, unavailable, message: "a VP8Decoder belongs to one thread")
extension VP8Decoder: Sendable {}
