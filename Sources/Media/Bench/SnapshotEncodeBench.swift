/// The cost of one ring snapshot (issue #19): `JPEGEncoder` (quality 85, 4:2:0, as `VisitorLog` uses it)
/// on test-pattern frames, this thread's CPU time per encode, and the JPEG's size.
public struct SnapshotEncodeMeasurement: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let encodes: LatencySummary
    public let meanBytes: Int

    /// `JPEG snapshot 640x480 q85 4:2:0: p50 2.345 ms, p99 …, mean 45 kB`.
    public var summary: String {
        "JPEG snapshot \(width)x\(height) q85 4:2:0: CPU ms per snapshot p50=\(BenchFormat.fixed(encodes.p50)) "
            + "p99=\(BenchFormat.fixed(encodes.p99)) mean=\(BenchFormat.fixed(encodes.mean)), "
            + "\(meanBytes / 1024) kB mean (\(encodes.count) encodes)"
    }
}

public enum SnapshotEncodeBench {
    public static let sizes = [(width: 640, height: 480), (width: 1280, height: 720)]

    /// Encodes `count` distinct test-pattern frames (after one warm-up encode) at `width`x`height`.
    public static func run(width: Int, height: Int, count: Int) throws(BenchError) -> SnapshotEncodeMeasurement {
        let source = TestPatternSource(width: width, height: height, frameRate: FrameRate(30), timing: .synthetic(start: .zero))
        do throws(VideoSourceError) { try source.open() } catch { throw .video(error) }
        defer { source.close() }
        var frames: [I420Frame] = []
        while frames.count < count {
            do throws(VideoSourceError) {
                if let frame = try source.nextFrame() { frames.append(frame) }
            } catch {
                throw .video(error)
            }
        }
        let encoder: JPEGEncoder
        do throws(JPEGError) { encoder = try JPEGEncoder(quality: 85, subsampling: .s420) } catch { throw .jpeg(error) }
        var costs: [Double] = []
        var bytes = 0
        do throws(JPEGError) { _ = try encoder.encode(frames[0]) } catch { throw .jpeg(error) }
        for frame in frames {
            let start = CPUClock.thread()
            let jpeg: [UInt8]
            do throws(JPEGError) { jpeg = try encoder.encode(frame) } catch { throw .jpeg(error) }
            costs.append((CPUClock.thread() - start).benchMilliseconds)
            bytes += jpeg.count
        }
        guard let summary = LatencySummary(milliseconds: costs) else {
            throw .clipMismatch(path: "test pattern", detail: "no frames")
        }
        return SnapshotEncodeMeasurement(width: width, height: height, encodes: summary, meanBytes: bytes / frames.count)
    }
}
