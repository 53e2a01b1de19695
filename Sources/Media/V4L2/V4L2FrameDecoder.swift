/// Turns one filled capture buffer of the negotiated format into an I420 frame (a copy: the buffer goes back
/// to the driver right after). `planes` holds one byte range per buffer plane: one for NV12, YU12, YUYV and
/// MJPEG (on either API), two for NV12M, three for YUV420M. MJPEG needs the source's `jpeg` decoder.
enum V4L2FrameDecoder {
    static func decode(
        _ planes: [UnsafeRawBufferPointer], format: V4L2NegotiatedFormat, jpeg: JPEGDecoder? = nil, into frame: inout I420Frame
    ) throws(PixelConversionError) {
        let expected = V4L2FormatSelection.planeCount(of: format.pixelFormat)
        guard planes.count == expected, format.planes.count == expected else {
            throw PixelConversionError(
                format: format.pixelFormat.description,
                detail: "\(planes.count) buffer planes (layout of \(format.planes.count)), expected \(expected)")
        }
        let (width, height) = (format.width, format.height)
        switch format.pixelFormat {
        case .yuyv:
            try PixelConversion.yuyvToI420(
                planes[0], width: width, height: height, bytesPerLine: format.bytesPerLine, into: &frame)
        case .nv12:
            try PixelConversion.nv12ToI420(
                planes[0], width: width, height: height, bytesPerLine: format.bytesPerLine, into: &frame)
        case .yuv420:
            try copyYU12(planes[0], width: width, height: height, bytesPerLine: format.bytesPerLine, into: &frame)
        case .nv12m:
            try PixelConversion.semiPlanarToI420(
                luma: plane(planes, format, 0), chroma: plane(planes, format, 1),
                width: width, height: height, into: &frame)
        case .mjpeg:
            guard let jpeg else { throw PixelConversionError(format: "MJPG", detail: "no JPEG decoder") }
            do {
                try jpeg.decode(planes[0], into: &frame)
            } catch {
                throw PixelConversionError(format: "MJPG", detail: "\(error)")
            }
        case .yuv420m:
            try PixelConversion.planarToI420(
                y: plane(planes, format, 0), u: plane(planes, format, 1), v: plane(planes, format, 2),
                width: width, height: height, into: &frame)
        default:
            throw PixelConversionError(format: format.pixelFormat.description, detail: "not a format we convert")
        }
    }

    private static func plane(
        _ planes: [UnsafeRawBufferPointer], _ format: V4L2NegotiatedFormat, _ index: Int
    ) -> PixelConversion.Plane {
        PixelConversion.Plane(planes[index], bytesPerLine: format.planes[index].bytesPerLine)
    }

    /// Single-buffer `V4L2_PIX_FMT_YUV420`: Y rows `bytesperline` apart, then U and V rows `bytesperline / 2` apart.
    private static func copyYU12(
        _ bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine lumaLine: Int, into frame: inout I420Frame
    ) throws(PixelConversionError) {
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
        try PixelConversion.planarToI420(
            y: .init(UnsafeRawBufferPointer(rebasing: bytes[0..<lumaBytes]), bytesPerLine: lumaLine),
            u: .init(UnsafeRawBufferPointer(rebasing: bytes[lumaBytes..<(lumaBytes + chromaBytes)]), bytesPerLine: chromaLine),
            v: .init(UnsafeRawBufferPointer(rebasing: bytes[(lumaBytes + chromaBytes)...]), bytesPerLine: chromaLine),
            width: width, height: height, format: "YU12", into: &frame)
    }
}
