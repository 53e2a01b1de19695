/// Capture formats into I420, once per frame on the capture thread: tight loops over raw buffers, no
/// allocation when `into` already has the right size and is not shared.
public enum PixelConversion {
    /// Packed 4:2:2 `Y0 U Y1 V` (V4L2 `YUYV`) into I420. Chroma is subsampled vertically by averaging each
    /// pair of rows with rounding, `(a + b + 1) / 2`; an odd last row is used alone.
    public static func yuyvToI420(
        _ source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int, into frame: inout I420Frame
    ) throws(PixelConversionError) {
        guard width > 0, height > 0, width % 2 == 0 else {
            throw PixelConversionError(format: "YUYV", detail: "size \(width)x\(height) needs a positive, even width")
        }
        guard bytesPerLine >= width * 2 else {
            throw PixelConversionError(format: "YUYV", detail: "bytesperline \(bytesPerLine) < \(width * 2)")
        }
        let needed = bytesPerLine * (height - 1) + width * 2
        guard source.count >= needed else {
            throw PixelConversionError(format: "YUYV", detail: "buffer has \(source.count) bytes, needs \(needed)")
        }
        prepare(&frame, width: width, height: height)
        let lumaStride = frame.lumaStride
        let chromaStride = frame.chromaStride
        let pairs = width / 2
        frame.withMutablePlanes { yPlane, uPlane, vPlane in
            let input = source.bindMemory(to: UInt8.self)
            let src = input.baseAddress!
            let yOut = yPlane.baseAddress!
            let uOut = uPlane.baseAddress!
            let vOut = vPlane.baseAddress!
            var row = 0
            while row < height {
                let top = src + row * bytesPerLine
                let bottom = row + 1 < height ? top + bytesPerLine : top
                let yTop = yOut + row * lumaStride
                let yBottom = yOut + (row + 1) * lumaStride
                let uRow = uOut + (row / 2) * chromaStride
                let vRow = vOut + (row / 2) * chromaStride
                let hasBottom = row + 1 < height
                for pair in 0..<pairs {
                    let t = top + pair * 4
                    let b = bottom + pair * 4
                    yTop[pair * 2] = t[0]
                    yTop[pair * 2 + 1] = t[2]
                    if hasBottom {
                        yBottom[pair * 2] = b[0]
                        yBottom[pair * 2 + 1] = b[2]
                    }
                    uRow[pair] = UInt8((UInt16(t[1]) + UInt16(b[1]) + 1) >> 1)
                    vRow[pair] = UInt8((UInt16(t[3]) + UInt16(b[3]) + 1) >> 1)
                }
                row += 2
            }
        }
    }

    /// Semi-planar 4:2:0 (V4L2 single-plane `NV12`: Y rows, then interleaved `U V` rows starting at
    /// `bytesPerLine * height`) into I420. Exact: Y is copied and U/V are de-interleaved.
    public static func nv12ToI420(
        _ source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int, into frame: inout I420Frame
    ) throws(PixelConversionError) {
        guard width > 0, height > 0 else {
            throw PixelConversionError(format: "NV12", detail: "size \(width)x\(height) is not positive")
        }
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        guard bytesPerLine >= chromaWidth * 2 else {
            throw PixelConversionError(format: "NV12", detail: "bytesperline \(bytesPerLine) < \(chromaWidth * 2)")
        }
        let chromaOffset = bytesPerLine * height
        let needed = chromaOffset + bytesPerLine * (chromaHeight - 1) + chromaWidth * 2
        guard source.count >= needed else {
            throw PixelConversionError(format: "NV12", detail: "buffer has \(source.count) bytes, needs \(needed)")
        }
        // One buffer cut into its two planes (the checks above cover both), converted like NV12M.
        try semiPlanarToI420(
            luma: Plane(UnsafeRawBufferPointer(rebasing: source[0..<chromaOffset]), bytesPerLine: bytesPerLine),
            chroma: Plane(UnsafeRawBufferPointer(rebasing: source[chromaOffset...]), bytesPerLine: bytesPerLine),
            width: width, height: height, format: "NV12", into: &frame)
    }

    /// Reuses `frame`'s buffer when the size matches; otherwise replaces it with a tight frame.
    static func prepare(_ frame: inout I420Frame, width: Int, height: Int) {
        if frame.width != width || frame.height != height {
            frame = I420Frame(width: width, height: height, captureTime: frame.captureTime, sequence: frame.sequence)
        }
    }
}
