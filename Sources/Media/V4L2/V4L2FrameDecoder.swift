/// Turns one filled capture buffer of the negotiated format into an I420 frame (a copy: the buffer goes
/// back to the driver right after). YU12 is copied plane by plane; NV12 and YUYV go through `PixelConversion`.
enum V4L2FrameDecoder {
    static func decode(
        _ bytes: UnsafeRawBufferPointer, format: V4L2NegotiatedFormat, into frame: inout I420Frame
    ) throws(PixelConversionError) {
        switch format.pixelFormat {
        case .yuyv:
            try PixelConversion.yuyvToI420(
                bytes, width: format.width, height: format.height, bytesPerLine: format.bytesPerLine, into: &frame)
        case .nv12:
            try PixelConversion.nv12ToI420(
                bytes, width: format.width, height: format.height, bytesPerLine: format.bytesPerLine, into: &frame)
        case .yuv420:
            try copyYU12(bytes, format: format, into: &frame)
        default:
            throw PixelConversionError(format: format.pixelFormat.description, detail: "not a format we convert")
        }
    }

    /// Single-plane `V4L2_PIX_FMT_YUV420`: Y rows `bytesperline` apart, then U and V rows `bytesperline / 2` apart.
    private static func copyYU12(
        _ bytes: UnsafeRawBufferPointer, format: V4L2NegotiatedFormat, into frame: inout I420Frame
    ) throws(PixelConversionError) {
        let (width, height) = (format.width, format.height)
        let lumaLine = format.bytesPerLine
        let chromaLine = lumaLine / 2
        let (chromaWidth, chromaHeight) = ((width + 1) / 2, (height + 1) / 2)
        guard width > 0, height > 0, lumaLine >= width, chromaLine >= chromaWidth else {
            throw PixelConversionError(format: "YU12", detail: "size \(width)x\(height) with bytesperline \(lumaLine)")
        }
        let lumaBytes = lumaLine * height
        let chromaBytes = chromaLine * chromaHeight
        let needed = lumaBytes + chromaBytes + chromaLine * (chromaHeight - 1) + chromaWidth
        guard bytes.count >= needed else {
            throw PixelConversionError(format: "YU12", detail: "buffer has \(bytes.count) bytes, needs \(needed)")
        }
        if frame.width != width || frame.height != height {
            frame = I420Frame(width: width, height: height, captureTime: frame.captureTime, sequence: frame.sequence)
        }
        let (lumaStride, chromaStride) = (frame.lumaStride, frame.chromaStride)
        frame.withMutablePlanes { y, u, v in
            for row in 0..<height {
                copyRow(bytes, from: row * lumaLine, count: width, to: y, at: row * lumaStride)
            }
            for row in 0..<chromaHeight {
                copyRow(bytes, from: lumaBytes + row * chromaLine, count: chromaWidth, to: u, at: row * chromaStride)
                copyRow(bytes, from: lumaBytes + chromaBytes + row * chromaLine, count: chromaWidth,
                        to: v, at: row * chromaStride)
            }
        }
    }

    private static func copyRow(
        _ source: UnsafeRawBufferPointer, from offset: Int, count: Int,
        to destination: UnsafeMutableBufferPointer<UInt8>, at target: Int
    ) {
        UnsafeMutableRawPointer(destination.baseAddress! + target)
            .copyMemory(from: source.baseAddress! + offset, byteCount: count)
    }
}
