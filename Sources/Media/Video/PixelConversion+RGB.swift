/// Packed 24-bit RGB into I420, for cameras that deliver nothing else (libcamera's vimc pipeline offers only
/// `BGR888`/`RGB888`). BT.601 limited range, the range VP8 expects; each U and V sample is computed from the
/// average colour of its 2x2 block (an odd last row or column is used alone).
extension PixelConversion {
    /// Byte order of one pixel in memory.
    public enum RGBOrder: Sendable {
        /// R, G, B (V4L2 `RGB24`, libcamera `BGR888`).
        case redGreenBlue
        /// B, G, R (V4L2 `BGR24`, libcamera `RGB888`).
        case blueGreenRed
    }

    public static func rgb24ToI420(
        _ source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int, order: RGBOrder,
        into frame: inout I420Frame
    ) throws(PixelConversionError) {
        let format = order == .redGreenBlue ? "RGB24" : "BGR24"
        guard width > 0, height > 0 else {
            throw PixelConversionError(format: format, detail: "size \(width)x\(height) is not positive")
        }
        guard bytesPerLine >= width * 3 else {
            throw PixelConversionError(format: format, detail: "bytesperline \(bytesPerLine) < \(width * 3)")
        }
        let needed = bytesPerLine * (height - 1) + width * 3
        guard source.count >= needed else {
            throw PixelConversionError(format: format, detail: "buffer has \(source.count) bytes, needs \(needed)")
        }
        prepare(&frame, width: width, height: height)
        let (lumaStride, chromaStride) = (frame.lumaStride, frame.chromaStride)
        let (redOffset, blueOffset) = order == .redGreenBlue ? (0, 2) : (2, 0)
        frame.withMutablePlanes { yPlane, uPlane, vPlane in
            let src = source.bindMemory(to: UInt8.self).baseAddress!
            let (yOut, uOut, vOut) = (yPlane.baseAddress!, uPlane.baseAddress!, vPlane.baseAddress!)
            // Wrapping operators: the values are bounded (≤ 4 * 255 * 128), and debug builds skip the
            // overflow checks that would otherwise dominate this per-pixel loop under QEMU.
            var row = 0
            while row < height {
                let rows = row + 1 < height ? 2 : 1
                let uRow = uOut + (row / 2) * chromaStride
                let vRow = vOut + (row / 2) * chromaStride
                var column = 0
                while column < width {
                    let columns = column + 1 < width ? 2 : 1
                    var (redSum, greenSum, blueSum) = (0, 0, 0)
                    for dy in 0..<rows {
                        let line = src + (row &+ dy) &* bytesPerLine
                        let yLine = yOut + (row &+ dy) &* lumaStride
                        for dx in 0..<columns {
                            let pixel = line + (column &+ dx) &* 3
                            let red = Int(pixel[redOffset]), green = Int(pixel[1]), blue = Int(pixel[blueOffset])
                            yLine[column &+ dx] = UInt8(truncatingIfNeeded: ((66 &* red &+ 129 &* green &+ 25 &* blue &+ 128) >> 8) &+ 16)
                            redSum = redSum &+ red
                            greenSum = greenSum &+ green
                            blueSum = blueSum &+ blue
                        }
                    }
                    let count = rows &* columns
                    let (red, green, blue) = (redSum / count, greenSum / count, blueSum / count)
                    uRow[column / 2] = UInt8(truncatingIfNeeded: ((-38 &* red &- 74 &* green &+ 112 &* blue &+ 128) >> 8) &+ 128)
                    vRow[column / 2] = UInt8(truncatingIfNeeded: ((112 &* red &- 94 &* green &- 18 &* blue &+ 128) >> 8) &+ 128)
                    column = column &+ 2
                }
                row = row &+ 2
            }
        }
    }
}
