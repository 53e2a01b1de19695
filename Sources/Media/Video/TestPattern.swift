/// The picture `TestPatternSource` draws: 75% colour bars, a box that moves with the frame index and the
/// timestamp band on top. Frame `n` is always the same picture for the same band value, so encoder tests
/// can compare a decoded frame with its source.
public struct TestPattern: Sendable {
    public let width: Int
    public let height: Int
    /// The bars, drawn once; each frame starts as a copy-on-write copy of it.
    private let background: I420Frame
    private let boxSize: Int

    /// BT.601 video-range Y, U, V of the 75% bars: white, yellow, cyan, green, magenta, red, blue.
    static let bars: [(y: UInt8, u: UInt8, v: UInt8)] = [
        (180, 128, 128), (162, 44, 142), (131, 156, 44), (112, 72, 58),
        (84, 184, 198), (65, 100, 212), (35, 212, 114),
    ]

    public init(width: Int, height: Int) {
        precondition(width >= 2 && height >= 2, "a test pattern needs at least 2x2 pixels")
        self.width = width
        self.height = height
        boxSize = max(2, min(width, height) / 8 & ~1)
        var frame = I420Frame(width: width, height: height)
        let lumaStride = frame.lumaStride
        let chromaStride = frame.chromaStride
        frame.withMutablePlanes { y, u, v in
            for row in 0..<height {
                for column in 0..<width { y[row * lumaStride + column] = Self.bars[column * 7 / width].y }
            }
            for row in 0..<(height + 1) / 2 {
                for column in 0..<(width + 1) / 2 {
                    let bar = Self.bars[min(6, column * 2 * 7 / width)]
                    u[row * chromaStride + column] = bar.u
                    v[row * chromaStride + column] = bar.v
                }
            }
        }
        background = frame
    }

    /// Frame `index`, with `bandValue` in the timestamp band when the frame is big enough for it.
    public func frame(index: UInt64, bandValue: UInt64?, captureTime: Duration) -> I420Frame {
        var frame = background
        frame.captureTime = captureTime
        frame.sequence = index
        let top = bandValue == nil ? 0 : TimestampBand.height(forWidth: width).flatMap { $0 <= height ? $0 : nil } ?? 0
        let origin = boxOrigin(index: index, top: top)
        drawBox(into: &frame, x: origin.x, y: origin.y)
        if let bandValue { TimestampBand.draw(bandValue, into: &frame) }
        return frame
    }

    /// Bounces horizontally at 8 px and vertically at 4 px per frame below the band.
    func boxOrigin(index: UInt64, top: Int) -> (x: Int, y: Int) {
        (Self.bounce(index * 8, span: width - boxSize), top + Self.bounce(index * 4, span: height - top - boxSize))
    }

    static func bounce(_ travelled: UInt64, span: Int) -> Int {
        guard span > 0 else { return 0 }
        let period = UInt64(2 * span)
        let phase = Int(travelled % period)
        return phase <= span ? phase : 2 * span - phase
    }

    /// A white box with a black centre (edges and flat areas for the encoder), neutral chroma, clipped to
    /// the frame.
    private func drawBox(into frame: inout I420Frame, x: Int, y: Int) {
        let size = boxSize
        let lumaStride = frame.lumaStride
        let chromaStride = frame.chromaStride
        let bottom = min(y + size, height)
        let right = min(x + size, width)
        frame.withMutablePlanes { yPlane, u, v in
            for row in y..<bottom {
                for column in x..<right {
                    let inner = abs(row - y - size / 2) < size / 4 && abs(column - x - size / 2) < size / 4
                    yPlane[row * lumaStride + column] = inner ? 16 : 235
                }
            }
            for row in y / 2..<bottom / 2 {
                for column in x / 2..<right / 2 {
                    u[row * chromaStride + column] = 128
                    v[row * chromaStride + column] = 128
                }
            }
        }
    }
}
