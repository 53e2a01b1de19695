/// Which pixel formats to ask a driver for, and how many planes each must come in (sans-IO: from the
/// buffer type and the `VIDIOC_ENUM_FMT` list, no descriptor involved).
public enum V4L2FormatSelection {
    /// Every format we convert to I420 (MJPEG by decoding it). `NM12`/`YM12` keep their planes in separate
    /// buffers, which only the multi-planar API can express; the others are one buffer (`num_planes` 1) on
    /// either API.
    public static let convertible: [PixelFormat] = [.nv12, .yuv420, .nv12m, .yuv420m, .yuyv, .mjpeg]

    /// The buffers (`v4l2_pix_format_mplane.num_planes`) a frame of `format` arrives in.
    public static func planeCount(of format: PixelFormat) -> Int {
        switch format {
        case .nv12m: 2
        case .yuv420m: 3
        default: 1
        }
    }

    /// The preferred formats to try with `S_FMT`, in order: those we convert, that the buffer type can carry,
    /// and that the device lists. An empty `offered` (a driver that does not enumerate) filters nothing.
    public static func candidates(
        preferred: [PixelFormat], offered: [PixelFormat], bufferType: V4L2BufferType
    ) -> [PixelFormat] {
        var result: [PixelFormat] = []
        for format in preferred where convertible.contains(format) && !result.contains(format) {
            if bufferType == .singlePlanar && planeCount(of: format) > 1 { continue }
            if !offered.isEmpty && !offered.contains(format) { continue }
            result.append(format)
        }
        return result
    }
}
