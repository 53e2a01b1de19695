import CTurboJPEG

/// I420 to JPEG with TurboJPEG (`tjCompressFromYUVPlanes`, no colour conversion): snapshots in 4:2:0, and
/// MJPEG benchmark frames in 4:2:2 like a webcam's (each chroma row written twice). One handle per encoder:
/// use it from one thread.
public final class JPEGEncoder {
    private let handle: tjhandle
    public let quality: Int
    public let subsampling: JPEGSubsampling

    public init(quality: Int = 85, subsampling: JPEGSubsampling = .s420) throws(JPEGError) {
        precondition((1...100).contains(quality), "JPEG quality is 1...100")
        precondition(subsampling == .s420 || subsampling == .s422, "the encoder writes 4:2:0 or 4:2:2")
        guard let handle = tjInitCompress() else { throw .last("tjInitCompress", handle: nil) }
        self.handle = handle
        self.quality = quality
        self.subsampling = subsampling
    }

    deinit { tjDestroy(handle) }

    public func encode(_ frame: I420Frame) throws(JPEGError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let (width, height, quality) = (Int32(frame.width), Int32(frame.height), Int32(quality))
        let (lumaStride, chromaStride) = (Int32(frame.lumaStride), Int32(frame.chromaStride))
        let subsampling = self.subsampling.turboJPEG
        let doubled = self.subsampling == .s422 ? Self.chromaRowsDoubled(frame) : nil
        let status = frame.withPlanes { y, u, v in
            if let doubled {
                return doubled.withUnsafeBufferPointer { chroma in
                    let half = chroma.count / 2
                    var planes: [UnsafePointer<UInt8>?] = [y.baseAddress, chroma.baseAddress, chroma.baseAddress.map { $0 + half }]
                    var strides: [Int32] = [lumaStride, Int32(frame.chromaWidth), Int32(frame.chromaWidth)]
                    return tjCompressFromYUVPlanes(handle, &planes, width, &strides, height, subsampling, &output, &size, quality, 0)
                }
            }
            var planes: [UnsafePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress]
            var strides: [Int32] = [lumaStride, chromaStride, chromaStride]
            return tjCompressFromYUVPlanes(handle, &planes, width, &strides, height, subsampling, &output, &size, quality, 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw .last("tjCompressFromYUVPlanes", handle: handle) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// U then V at 4:2:2: every I420 chroma row twice, tightly packed (`chromaWidth` × `height` each).
    private static func chromaRowsDoubled(_ frame: I420Frame) -> [UInt8] {
        var packed: [UInt8] = []
        packed.reserveCapacity(2 * frame.chromaWidth * frame.height)
        frame.withPlanes { _, u, v in
            for plane in [u, v] {
                for row in 0..<frame.height {
                    let start = (row / 2) * frame.chromaStride
                    packed.append(contentsOf: plane[start..<(start + frame.chromaWidth)])
                }
            }
        }
        return packed
    }
}
