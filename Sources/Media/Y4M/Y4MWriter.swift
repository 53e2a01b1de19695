import IntercomPlatform

/// Writes frames as a YUV4MPEG2 file, e.g. a test pattern clip for `vpxenc` or `vp8bench` to encode.
public enum Y4MWriter {
    /// The whole file: header, then `FRAME` and the packed pixels of each frame.
    public static func encode(_ frames: [I420Frame], frameRate: FrameRate) -> [UInt8] {
        guard let first = frames.first else { return [] }
        var bytes = Y4MStreamHeader(width: first.width, height: first.height, frameRate: frameRate).serialized()
        for frame in frames {
            precondition(frame.width == first.width && frame.height == first.height, "a Y4M file has one size")
            bytes += Array("FRAME\n".utf8)
            bytes += frame.packedBytes()
        }
        return bytes
    }

    /// Writes `frames` to `path` atomically.
    public static func write(_ frames: [I420Frame], frameRate: FrameRate, to path: String) throws(SystemCallError) {
        try AtomicFile.write(encode(frames, frameRate: frameRate), to: path, permissions: 0o644)
    }
}
