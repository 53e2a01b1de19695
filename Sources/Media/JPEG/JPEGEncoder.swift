import CTurboJPEG

/// I420 to JPEG with TurboJPEG (`tjCompressFromYUVPlanes`, 4:2:0, no colour conversion): snapshots and the
/// MJPEG test frames. One handle per encoder: use it from one thread.
public final class JPEGEncoder {
    private let handle: tjhandle
    public let quality: Int

    public init(quality: Int = 85) throws(JPEGError) {
        precondition((1...100).contains(quality), "JPEG quality is 1...100")
        guard let handle = tjInitCompress() else { throw .last("tjInitCompress", handle: nil) }
        self.handle = handle
        self.quality = quality
    }

    deinit { tjDestroy(handle) }

    public func encode(_ frame: I420Frame) throws(JPEGError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let (width, height, quality) = (Int32(frame.width), Int32(frame.height), Int32(quality))
        let (lumaStride, chromaStride) = (Int32(frame.lumaStride), Int32(frame.chromaStride))
        let status = frame.withPlanes { y, u, v in
            var planes: [UnsafePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress]
            var strides: [Int32] = [lumaStride, chromaStride, chromaStride]
            return tjCompressFromYUVPlanes(handle, &planes, width, &strides, height, Int32(TJSAMP_420.rawValue),
                                           &output, &size, quality, 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw .last("tjCompressFromYUVPlanes", handle: handle) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
