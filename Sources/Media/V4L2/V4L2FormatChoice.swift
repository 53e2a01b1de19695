/// Which of a camera's formats to capture in, and why (sans-IO: from the `ENUM_FMT`/`ENUM_FRAMESIZES`/
/// `ENUM_FRAMEINTERVALS` listing). A native YUV format that has the configured size at the configured rate
/// wins, because it costs no decoding; a USB webcam usually has YUYV at 640x480 only up to 10–15 fps and at
/// 1280x720 only at 5–10, and MJPEG at full rate: then MJPEG wins. A slower native format comes next, and a
/// format that does not list the size at all last (the driver then picks the nearest size).
public struct V4L2FormatChoice: Sendable, Equatable {
    /// The formats to try with `S_FMT`, best first.
    public var order: [PixelFormat]
    /// Why the first one, for `probe`, `camera-test` and the log.
    public var reason: String

    public static func choose(
        preferred: [PixelFormat], offered: [V4L2CaptureDevice.Format], bufferType: V4L2BufferType,
        width: Int, height: Int, framesPerSecond: Double
    ) -> V4L2FormatChoice {
        let candidates = V4L2FormatSelection.candidates(
            preferred: preferred, offered: offered.map(\.pixelFormat), bufferType: bufferType)
        let wanted = "\(width)x\(height) at \(formatRate(framesPerSecond)) fps"
        guard !offered.isEmpty else {
            return V4L2FormatChoice(order: candidates, reason: "the device lists no formats: trying them in preference order")
        }
        let fits = candidates.map { format in
            Fit(format: format, entry: offered.first { $0.pixelFormat == format }, width: width, height: height,
                framesPerSecond: framesPerSecond)
        }
        let ranked = fits.enumerated().sorted { ($0.element.tier, $0.offset) < ($1.element.tier, $1.offset) }.map(\.element)
        guard let best = ranked.first else {
            return V4L2FormatChoice(order: [], reason: "no format we can convert is listed")
        }
        let reason: String
        switch best.tier {
        case 0:
            reason = "\(best.format) has \(wanted) natively (no decoding)"
        case 1:
            let native = fits.filter { $0.format != .mjpeg && $0.hasSize }
            let why = native.isEmpty
                ? "no native YUV format lists \(width)x\(height)"
                : "native YUV has \(width)x\(height) only up to " + native.map { "\($0.format) \(formatRate($0.rate ?? 0)) fps" }.joined(separator: ", ")
            reason = "MJPEG for \(wanted): \(why)"
        case 2, 3:
            reason = "\(best.format) at \(width)x\(height) tops out at \(formatRate(best.rate ?? 0)) fps; no format has \(wanted)"
        default:
            reason = "no format lists \(width)x\(height): \(best.format), the driver picks the nearest size"
        }
        return V4L2FormatChoice(order: ranked.map(\.format), reason: reason)
    }

    /// How well one format serves the request.
    private struct Fit {
        let format: PixelFormat
        let hasSize: Bool
        /// The best rate listed at the size; nil when the driver lists no intervals (assumed sufficient).
        let rate: Double?
        let tier: Int

        init(format: PixelFormat, entry: V4L2CaptureDevice.Format?, width: Int, height: Int, framesPerSecond: Double) {
            self.format = format
            let size = entry?.sizes.first { $0.width == width && $0.height == height }
            // A driver that enumerates no sizes (or only a stepwise range, listed as its maximum) may take any.
            let sizes = entry?.sizes ?? []
            let unlisted = sizes.isEmpty || (sizes.count == 1 && entry?.isStepwise == true
                && width <= sizes[0].width && height <= sizes[0].height)
            hasSize = size != nil || unlisted
            rate = size?.framesPerSecond.first ?? (unlisted ? sizes.first?.framesPerSecond.first : nil)
            let fast = rate.map { $0 + 0.5 >= framesPerSecond } ?? true
            let native = format != .mjpeg
            tier = switch (hasSize, fast, native) {
            case (true, true, true): 0
            case (true, true, false): 1
            case (true, false, true): 2
            case (true, false, false): 3
            case (false, _, true): 4
            case (false, _, false): 5
            }
        }
    }

    private static func formatRate(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
