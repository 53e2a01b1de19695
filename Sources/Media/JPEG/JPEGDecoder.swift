import CTurboJPEG

/// JPEG (a webcam's MJPEG frame) to I420 through TurboJPEG's YUV path, `tjDecompressToYUVPlanes`: the
/// JPEG's own Y, Cb and Cr planes come out without any colour conversion. A 4:2:0 picture is decoded straight
/// into the frame; other subsamplings (4:2:2 from most UVC webcams) decode their chroma into a scratch buffer
/// that is then box-filtered to 4:2:0.
///
/// Damaged input (truncated, garbage, a size other than the frame's) throws a `JPEGError` and never crashes;
/// libjpeg warnings count as errors (`TJFLAG_STOPONWARNING`), so a half-decoded picture is never shown.
/// After any failure the TurboJPEG handle is replaced: libjpeg-turbo 2.1 leaves a handle whose
/// `tjDecompressHeader3` failed mid-stream in a state where every later call fails too ("Bogus marker
/// length"), which would turn one garbage webcam frame into a dead camera.
/// One handle per decoder: use it from one thread.
public final class JPEGDecoder {
    public struct Header: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var subsampling: JPEGSubsampling
    }

    /// The largest picture `decode(_:)` allocates a frame for (a hostile header can claim 65535x65535).
    public let maximumPixels: Int
    /// `TJFLAG_STOPONWARNING`: stop at the first libjpeg warning (a truncated stream) instead of filling gray.
    static let flags = Int32(TJFLAG_STOPONWARNING)

    private var handle: tjhandle
    /// Chroma planes of non-4:2:0 pictures, reused from frame to frame.
    private var scratch: [UInt8] = []

    public init(maximumPixels: Int = 4096 * 4096) throws(JPEGError) {
        guard let handle = tjInitDecompress() else { throw .last("tjInitDecompress", handle: nil) }
        self.handle = handle
        self.maximumPixels = maximumPixels
    }

    deinit { tjDestroy(handle) }

    /// The size and subsampling the JPEG's frame header declares (`tjDecompressHeader3`).
    public func header(_ jpeg: UnsafeRawBufferPointer) throws(JPEGError) -> Header {
        do {
            return try readHeader(jpeg)
        } catch {
            replaceHandle()
            throw error
        }
    }

    /// A fresh handle after a failure (see the type's comment); if even that fails (no memory), the old one
    /// stays and the next frame tries again.
    private func replaceHandle() {
        guard let fresh = tjInitDecompress() else { return }
        tjDestroy(handle)
        handle = fresh
    }

    private func readHeader(_ jpeg: UnsafeRawBufferPointer) throws(JPEGError) -> Header {
        guard let base = jpeg.baseAddress, !jpeg.isEmpty else {
            throw JPEGError(call: "tjDecompressHeader3", message: "empty buffer")
        }
        var (width, height, subsampling, colorspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard tjDecompressHeader3(handle, base.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                  &width, &height, &subsampling, &colorspace) == 0 else {
            throw .last("tjDecompressHeader3", handle: handle)
        }
        guard let kind = JPEGSubsampling(turboJPEG: subsampling) else {
            throw JPEGError(call: "tjDecompressHeader3", message: "unknown subsampling \(subsampling)")
        }
        guard width > 0, height > 0 else {
            throw JPEGError(call: "tjDecompressHeader3", message: "size \(width)x\(height)")
        }
        return Header(width: Int(width), height: Int(height), subsampling: kind)
    }

    /// Decodes into a new frame of the JPEG's own size.
    public func decode(_ jpeg: UnsafeRawBufferPointer) throws(JPEGError) -> I420Frame {
        let header = try header(jpeg)
        guard header.width * header.height <= maximumPixels else {
            throw JPEGError(call: "tjDecompressHeader3",
                            message: "\(header.width)x\(header.height) is larger than \(maximumPixels) pixels")
        }
        var frame = I420Frame(width: header.width, height: header.height)
        try decode(jpeg, header: header, into: &frame)
        return frame
    }

    /// Decodes into `frame`, which must already have the JPEG's size (a camera's negotiated size).
    public func decode(_ jpeg: UnsafeRawBufferPointer, into frame: inout I420Frame) throws(JPEGError) {
        try decode(jpeg, header: header(jpeg), into: &frame)
    }

    private func decode(_ jpeg: UnsafeRawBufferPointer, header: Header, into frame: inout I420Frame) throws(JPEGError) {
        do {
            try decodeChecked(jpeg, header: header, into: &frame)
        } catch {
            replaceHandle()
            throw error
        }
    }

    private func decodeChecked(_ jpeg: UnsafeRawBufferPointer, header: Header, into frame: inout I420Frame) throws(JPEGError) {
        guard header.width == frame.width, header.height == frame.height else {
            throw JPEGError(call: "tjDecompressHeader3",
                            message: "picture is \(header.width)x\(header.height), expected \(frame.width)x\(frame.height)")
        }
        let source = jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let (width, height) = (Int32(header.width), Int32(header.height))
        if header.subsampling == .s420 {
            let (lumaStride, chromaStride) = (Int32(frame.lumaStride), Int32(frame.chromaStride))
            let status = frame.withMutablePlanes { y, u, v in
                var planes: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress]
                var strides: [Int32] = [lumaStride, chromaStride, chromaStride]
                return tjDecompressToYUVPlanes(handle, source, UInt(jpeg.count), &planes, width, &strides, height, Self.flags)
            }
            guard status == 0 else { throw .last("tjDecompressToYUVPlanes", handle: handle) }
            return
        }
        try decodeResampling(source, count: jpeg.count, header: header, into: &frame)
    }

    /// Y straight into the frame, Cb and Cr into `scratch`, then down to 4:2:0 (gray: neutral chroma).
    private func decodeResampling(
        _ source: UnsafePointer<UInt8>, count: Int, header: Header, into frame: inout I420Frame
    ) throws(JPEGError) {
        let (width, height) = (Int32(header.width), Int32(header.height))
        let subsampling = header.subsampling.turboJPEG
        let isGray = header.subsampling == .gray
        let chromaWidth = isGray ? 0 : Int(tjPlaneWidth(1, width, subsampling))
        let chromaHeight = isGray ? 0 : Int(tjPlaneHeight(1, height, subsampling))
        let chromaCount = chromaWidth * chromaHeight
        if scratch.count < 2 * chromaCount { scratch = [UInt8](repeating: 0, count: 2 * chromaCount) }
        let lumaStride = Int32(frame.lumaStride)
        let status = frame.withMutablePlanes { y, u, v in
            scratch.withUnsafeMutableBufferPointer { chroma in
                var planes: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, chroma.baseAddress, chroma.baseAddress.map { $0 + chromaCount }]
                var strides: [Int32] = [lumaStride, Int32(chromaWidth), Int32(chromaWidth)]
                return tjDecompressToYUVPlanes(handle, source, UInt(count), &planes, width, &strides, height, Self.flags)
            }
        }
        guard status == 0 else { throw .last("tjDecompressToYUVPlanes", handle: handle) }
        let (targetWidth, targetHeight, targetStride) = (frame.chromaWidth, frame.chromaHeight, frame.chromaStride)
        frame.withMutablePlanes { _, u, v in
            guard !isGray else {
                u.update(repeating: 128)
                v.update(repeating: 128)
                return
            }
            scratch.withUnsafeBufferPointer { chroma in
                for (index, target) in [u, v].enumerated() {
                    PixelConversion.resampleChroma(
                        from: UnsafeBufferPointer(rebasing: chroma[(index * chromaCount)..<((index + 1) * chromaCount)]),
                        width: chromaWidth, height: chromaHeight,
                        to: target, width: targetWidth, height: targetHeight, stride: targetStride)
                }
            }
        }
    }
}
