/// The libcamera pixel formats (DRM fourccs) the libcamera source turns into I420: YUV420 and NV12 from
/// ISP pipelines such as the Raspberry Pi's, and the packed 24-bit RGB that the vimc test driver offers.
public enum LibcameraPixelFormat: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// Planar 4:2:0 (`YU12`): Y plane, then U and V planes at half the line pitch.
    case yuv420 = 0x3231_5559
    /// Semi-planar 4:2:0 (`NV12`): Y plane, then interleaved U V pairs.
    case nv12 = 0x3231_564E
    /// libcamera `BGR888` (`BG24`): R, G, B bytes in memory (V4L2 `RGB24`).
    case bgr888 = 0x3432_4742
    /// libcamera `RGB888` (`RG24`): B, G, R bytes in memory (V4L2 `BGR24`).
    case rgb888 = 0x3432_4752

    /// The order `LibcameraVideoSource` asks for them: no conversion cost first, RGB only when a camera
    /// offers nothing else.
    public static let preferenceOrder: [LibcameraPixelFormat] = [.yuv420, .nv12, .bgr888, .rgb888]

    /// libcamera's name for the format (`PixelFormat::toString()`).
    public var description: String {
        switch self {
        case .yuv420: "YUV420"
        case .nv12: "NV12"
        case .bgr888: "BGR888"
        case .rgb888: "RGB888"
        }
    }

    /// The four characters of any fourcc, for messages about formats we do not convert.
    public static func fourccText(_ fourcc: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: fourcc >> ($0 * 8)) }, as: UTF8.self)
    }
}
