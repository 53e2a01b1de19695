/// A capture buffer that cannot hold the picture its format claims (a driver or caller bug, never a crash).
public struct PixelConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `"YUYV"` or `"NV12"`.
    public var format: String
    public var detail: String

    public var description: String { "\(format) → I420: \(detail)" }
}
