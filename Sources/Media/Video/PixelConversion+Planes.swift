/// 4:2:0 pictures whose planes lie in separate buffers, each with its own line pitch: the multi-planar V4L2
/// formats (`NV12M`: Y + interleaved UV; `YUV420M`: Y + U + V), and the single-buffer NV12/YU12 cut into planes.
extension PixelConversion {
    /// A plane of `rows` rows, `bytesPerLine` apart, of which the first `rowBytes` bytes are used.
    public struct Plane {
        public var bytes: UnsafeRawBufferPointer
        public var bytesPerLine: Int

        public init(_ bytes: UnsafeRawBufferPointer, bytesPerLine: Int) {
            self.bytes = bytes
            self.bytesPerLine = bytesPerLine
        }

        func check(format: String, name: String, rowBytes: Int, rows: Int) throws(PixelConversionError) {
            guard bytesPerLine >= rowBytes else {
                throw PixelConversionError(format: format, detail: "\(name) bytesperline \(bytesPerLine) < \(rowBytes)")
            }
            let needed = bytesPerLine * (rows - 1) + rowBytes
            guard bytes.count >= needed else {
                throw PixelConversionError(format: format, detail: "\(name) plane has \(bytes.count) bytes, needs \(needed)")
            }
        }

        func row(_ index: Int) -> UnsafePointer<UInt8> {
            bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + index * bytesPerLine
        }
    }

    /// Y plane plus one plane of interleaved `U V` pairs into I420. Exact: Y is copied, U/V de-interleaved.
    public static func semiPlanarToI420(
        luma: Plane, chroma: Plane, width: Int, height: Int, format: String = "NV12M", into frame: inout I420Frame
    ) throws(PixelConversionError) {
        guard width > 0, height > 0 else {
            throw PixelConversionError(format: format, detail: "size \(width)x\(height) is not positive")
        }
        let (chromaWidth, chromaHeight) = ((width + 1) / 2, (height + 1) / 2)
        try luma.check(format: format, name: "Y", rowBytes: width, rows: height)
        try chroma.check(format: format, name: "UV", rowBytes: chromaWidth * 2, rows: chromaHeight)
        prepare(&frame, width: width, height: height)
        let (lumaStride, chromaStride) = (frame.lumaStride, frame.chromaStride)
        frame.withMutablePlanes { yPlane, uPlane, vPlane in
            for row in 0..<height {
                (yPlane.baseAddress! + row * lumaStride).update(from: luma.row(row), count: width)
            }
            for row in 0..<chromaHeight {
                let interleaved = chroma.row(row)
                let uRow = uPlane.baseAddress! + row * chromaStride
                let vRow = vPlane.baseAddress! + row * chromaStride
                for column in 0..<chromaWidth {
                    uRow[column] = interleaved[column * 2]
                    vRow[column] = interleaved[column * 2 + 1]
                }
            }
        }
    }

    /// Separate Y, U and V planes into I420: a copy row by row.
    public static func planarToI420(
        y: Plane, u: Plane, v: Plane, width: Int, height: Int, format: String = "YUV420M", into frame: inout I420Frame
    ) throws(PixelConversionError) {
        guard width > 0, height > 0 else {
            throw PixelConversionError(format: format, detail: "size \(width)x\(height) is not positive")
        }
        let (chromaWidth, chromaHeight) = ((width + 1) / 2, (height + 1) / 2)
        try y.check(format: format, name: "Y", rowBytes: width, rows: height)
        try u.check(format: format, name: "U", rowBytes: chromaWidth, rows: chromaHeight)
        try v.check(format: format, name: "V", rowBytes: chromaWidth, rows: chromaHeight)
        prepare(&frame, width: width, height: height)
        let (lumaStride, chromaStride) = (frame.lumaStride, frame.chromaStride)
        frame.withMutablePlanes { yPlane, uPlane, vPlane in
            for row in 0..<height {
                (yPlane.baseAddress! + row * lumaStride).update(from: y.row(row), count: width)
            }
            for row in 0..<chromaHeight {
                (uPlane.baseAddress! + row * chromaStride).update(from: u.row(row), count: chromaWidth)
                (vPlane.baseAddress! + row * chromaStride).update(from: v.row(row), count: chromaWidth)
            }
        }
    }
}
