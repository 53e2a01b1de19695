import Foundation
import IntercomPlatform

/// The MJPEG clip both sides of the decode comparison read: test-pattern frames as 4:2:2 JPEGs (a webcam's
/// subsampling), each stored as a 4-byte big-endian length and the JPEG (`Tests/bench/mjpegbench.c` reads
/// the same file).
public enum MJPEGClip {
    /// `DIR/pattern_WxH.mjpg`.
    public static func path(directory: String, width: Int, height: Int) -> String {
        "\(directory)/pattern_\(width)x\(height).mjpg"
    }

    /// The pattern gets sensor-like noise (±12 in luma, a fixed pseudo-random sequence), so the JPEGs are as
    /// busy as a camera's (about 60 kB at 640x480, quality 85) rather than a flat pattern's few kilobytes.
    public static func write(width: Int, height: Int, frames: Int, quality: Int = 85, to path: String) throws(BenchError) {
        let pattern = TestPattern(width: width, height: height)
        var clip: [UInt8] = []
        var seed: UInt32 = 0x1234_5678
        do {
            let encoder = try JPEGEncoder(quality: quality, subsampling: .s422)
            for index in 0..<frames {
                var frame = pattern.frame(index: UInt64(index), bandValue: UInt64(index), captureTime: .zero)
                frame.withMutablePlanes { y, _, _ in
                    for offset in y.indices {
                        seed = seed &* 1_664_525 &+ 1_013_904_223  // Numerical Recipes' LCG
                        y[offset] = UInt8(clamping: Int(y[offset]) + Int(seed >> 27) - 12)
                    }
                }
                let jpeg = try encoder.encode(frame)
                let size = UInt32(jpeg.count)
                clip += [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
                clip += jpeg
            }
        } catch {
            throw .clipMismatch(path: path, detail: "cannot encode the clip: \(error)")
        }
        do {
            try Data(clip).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .system(SystemCallError(call: "write", errno: EIO, path: path, detail: "\(error)"))
        }
    }

    public static func read(_ path: String) throws(BenchError) -> [[UInt8]] {
        let bytes: [UInt8]
        do {
            bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .system(SystemCallError(call: "read", errno: ENOENT, path: path, detail: "\(error)"))
        }
        var frames: [[UInt8]] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard size > 0, offset + size <= bytes.count else { throw .clipMismatch(path: path, detail: "bad frame length \(size)") }
            frames.append(Array(bytes[offset..<(offset + size)]))
            offset += size
        }
        guard !frames.isEmpty else { throw .clipMismatch(path: path, detail: "no frames") }
        return frames
    }
}
