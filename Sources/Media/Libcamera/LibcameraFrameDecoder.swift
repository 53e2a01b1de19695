/// One completed libcamera buffer into an I420 frame (a copy: the request goes back to the camera right
/// after). `planes` holds one byte range per `FrameBuffer` plane: one for packed RGB, one or two for NV12,
/// one or three for YUV420 (pipelines differ in how many dmabuf planes a frame has).
enum LibcameraFrameDecoder {
    static func decode(
        _ planes: [UnsafeRawBufferPointer], format: LibcameraNegotiatedFormat, into frame: inout I420Frame
    ) throws(PixelConversionError) {
        let (width, height, stride) = (format.width, format.height, format.stride)
        guard let first = planes.first else {
            throw PixelConversionError(format: format.pixelFormat.description, detail: "a buffer without planes")
        }
        switch format.pixelFormat {
        case .bgr888, .rgb888:
            try PixelConversion.rgb24ToI420(
                first, width: width, height: height, bytesPerLine: stride,
                order: format.pixelFormat == .bgr888 ? .redGreenBlue : .blueGreenRed, into: &frame)
        case .nv12 where planes.count >= 2:
            try PixelConversion.semiPlanarToI420(
                luma: .init(first, bytesPerLine: stride), chroma: .init(planes[1], bytesPerLine: stride),
                width: width, height: height, format: "NV12", into: &frame)
        case .nv12:
            try PixelConversion.nv12ToI420(first, width: width, height: height, bytesPerLine: stride, into: &frame)
        case .yuv420:
            let chromaStride = stride / 2
            let chromaHeight = (height + 1) / 2
            let (u, v): (UnsafeRawBufferPointer, UnsafeRawBufferPointer)
            if planes.count >= 3 {
                (u, v) = (planes[1], planes[2])
            } else {
                // One dmabuf plane: U follows Y, V follows U (libcamera's YUV420 layout).
                let lumaBytes = stride * height
                let chromaBytes = chromaStride * chromaHeight
                guard first.count >= lumaBytes + 2 * chromaBytes else {
                    throw PixelConversionError(
                        format: "YUV420", detail: "buffer has \(first.count) bytes, needs \(lumaBytes + 2 * chromaBytes)")
                }
                u = UnsafeRawBufferPointer(rebasing: first[lumaBytes..<(lumaBytes + chromaBytes)])
                v = UnsafeRawBufferPointer(rebasing: first[(lumaBytes + chromaBytes)...])
            }
            try PixelConversion.planarToI420(
                y: .init(first, bytesPerLine: stride), u: .init(u, bytesPerLine: chromaStride),
                v: .init(v, bytesPerLine: chromaStride), width: width, height: height, format: "YUV420", into: &frame)
        }
    }
}
