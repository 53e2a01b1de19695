/// One picture in planar YUV 4:2:0 (`VPX_IMG_FMT_I420`, V4L2 `YU12`): a full-size Y plane followed by
/// half-size U and V planes, each row `stride` bytes apart, all in one contiguous buffer so a frame moves
/// between threads as a single copy-on-write array.
public struct I420Frame: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Bytes from one Y row to the next (≥ `width`).
    public let lumaStride: Int
    /// Bytes from one U (or V) row to the next (≥ `chromaWidth`).
    public let chromaStride: Int
    /// When the picture was captured, on `CLOCK_MONOTONIC` (V4L2 `TIMESTAMP_MONOTONIC` uses the same clock).
    public var captureTime: Duration
    /// The source's frame counter; a gap means frames were dropped before this one.
    public var sequence: UInt64
    /// Y plane, then U plane, then V plane.
    public private(set) var storage: [UInt8]

    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }
    public var lumaByteCount: Int { lumaStride * height }
    public var chromaByteCount: Int { chromaStride * chromaHeight }

    /// A black frame (Y 16, U and V 128: video-range black). Strides default to the tight width.
    public init(
        width: Int, height: Int, captureTime: Duration = .zero, sequence: UInt64 = 0,
        lumaStride: Int? = nil, chromaStride: Int? = nil
    ) {
        precondition(width > 0 && height > 0, "an I420 frame needs a positive size")
        self.width = width
        self.height = height
        self.lumaStride = lumaStride ?? width
        self.chromaStride = chromaStride ?? (width + 1) / 2
        precondition(self.lumaStride >= width && self.chromaStride >= (width + 1) / 2, "stride below width")
        self.captureTime = captureTime
        self.sequence = sequence
        let lumaCount = self.lumaStride * height
        // Built from two filled arrays: appending a repeatElement sequence is byte-by-byte in debug builds
        // (290 ms per 640x480 frame under QEMU, which held capture to 3 fps).
        storage = [UInt8](repeating: 16, count: lumaCount)
            + [UInt8](repeating: 128, count: 2 * self.chromaStride * ((height + 1) / 2))
    }

    /// Read access to the three planes at once.
    public func withPlanes<Result>(
        _ body: (_ y: UnsafeBufferPointer<UInt8>, _ u: UnsafeBufferPointer<UInt8>, _ v: UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let lumaCount = lumaByteCount
        let chromaCount = chromaByteCount
        return storage.withUnsafeBufferPointer { all in
            body(
                UnsafeBufferPointer(rebasing: all[0..<lumaCount]),
                UnsafeBufferPointer(rebasing: all[lumaCount..<lumaCount + chromaCount]),
                UnsafeBufferPointer(rebasing: all[(lumaCount + chromaCount)...])
            )
        }
    }

    /// Write access to the three planes at once (copies the buffer first if another frame shares it).
    public mutating func withMutablePlanes<Result>(
        _ body: (
            _ y: UnsafeMutableBufferPointer<UInt8>, _ u: UnsafeMutableBufferPointer<UInt8>,
            _ v: UnsafeMutableBufferPointer<UInt8>
        ) -> Result
    ) -> Result {
        let lumaCount = lumaByteCount
        let chromaCount = chromaByteCount
        return storage.withUnsafeMutableBufferPointer { all in
            body(
                UnsafeMutableBufferPointer(rebasing: all[0..<lumaCount]),
                UnsafeMutableBufferPointer(rebasing: all[lumaCount..<lumaCount + chromaCount]),
                UnsafeMutableBufferPointer(rebasing: all[(lumaCount + chromaCount)...])
            )
        }
    }

    /// The luma sample at column `x`, row `y` (for tests and analysis, not per-pixel loops).
    public func luma(x: Int, y: Int) -> UInt8 { storage[y * lumaStride + x] }
    public func u(x: Int, y: Int) -> UInt8 { storage[lumaByteCount + y * chromaStride + x] }
    public func v(x: Int, y: Int) -> UInt8 { storage[lumaByteCount + chromaByteCount + y * chromaStride + x] }

    /// The picture as tightly packed I420 (what a `.yuv` file or a Y4M frame holds), without stride padding.
    public func packedBytes() -> [UInt8] {
        var packed: [UInt8] = []
        packed.reserveCapacity(width * height + 2 * chromaWidth * chromaHeight)
        withPlanes { y, u, v in
            for row in 0..<height { packed.append(contentsOf: y[row * lumaStride..<row * lumaStride + width]) }
            for plane in [u, v] {
                for row in 0..<chromaHeight {
                    packed.append(contentsOf: plane[row * chromaStride..<row * chromaStride + chromaWidth])
                }
            }
        }
        return packed
    }
}

extension I420Frame {
    /// A frame with tight strides whose storage is exactly `packed` (Y, then U, then V, no padding).
    public init(width: Int, height: Int, packed: [UInt8], captureTime: Duration = .zero, sequence: UInt64 = 0) {
        self.init(width: width, height: height, captureTime: captureTime, sequence: sequence)
        precondition(packed.count == storage.count, "packed I420 of \(width)x\(height) is \(storage.count) bytes")
        storage = packed
    }

    /// The whole buffer, for readers that fill a tightly packed frame in one `read(2)`.
    mutating func withMutableStorage<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
        storage.withUnsafeMutableBytes(body)
    }
}
