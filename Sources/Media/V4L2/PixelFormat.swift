import Glibc

/// A V4L2 pixel format, a little-endian four-character code (`v4l2_fourcc`, `V4L2_PIX_FMT_*`).
public struct PixelFormat: Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public init(_ code: StaticString) {
        precondition(code.utf8CodeUnitCount == 4, "a fourcc has four characters")
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(code.utf8Start[index]) << (8 * UInt32(index)) }
        self.rawValue = value
    }

    /// The corresponding C constant is `V4L2_PIX_FMT_YUYV`.
    public static let yuyv = PixelFormat("YUYV")
    /// The corresponding C constant is `V4L2_PIX_FMT_NV12`.
    public static let nv12 = PixelFormat("NV12")
    /// The corresponding C constant is `V4L2_PIX_FMT_YUV420` (I420).
    public static let yuv420 = PixelFormat("YU12")
    /// The corresponding C constant is `V4L2_PIX_FMT_NV12M`: NV12 with Y and the interleaved UV in two buffers
    /// (multi-planar API only).
    public static let nv12m = PixelFormat("NM12")
    /// The corresponding C constant is `V4L2_PIX_FMT_YUV420M`: I420 with Y, U and V in three buffers
    /// (multi-planar API only).
    public static let yuv420m = PixelFormat("YM12")
    /// The corresponding C constant is `V4L2_PIX_FMT_MJPEG`.
    public static let mjpeg = PixelFormat("MJPG")

    /// `YUYV`; big-endian variants (the `V4L2_PIX_FMT_FLAG_BE` bit 31) as `Y16 -BE`; unprintable bytes as `?`.
    public var description: String {
        let bigEndian = rawValue & 0x8000_0000 != 0
        let code = rawValue & 0x7FFF_FFFF
        let text = String((0..<4).map { index -> Character in
            let byte = UInt8((code >> (8 * UInt32(index))) & 0xFF)
            return (0x20..<0x7F).contains(byte) ? Character(UnicodeScalar(byte)) : "?"
        })
        return bigEndian ? text + "-BE" : text
    }
}
