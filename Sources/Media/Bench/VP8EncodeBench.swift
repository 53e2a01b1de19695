import IntercomPlatform

/// Our side of the VP8 comparison: `VP8Encoder` with `VP8EncoderConfiguration.benchmarkBaseline` on frames
/// already in memory, timed like `vp8bench.c` (wall time around each `encode`, process CPU over the loop),
/// plus the encoder thread's own CPU time.
public struct VP8EncodeMeasurement: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let frames: Int
    /// Wall milliseconds per `encode` call.
    public let latency: LatencySummary
    /// `CLOCK_PROCESS_CPUTIME_ID` over the loop ÷ frames (the metric `vp8bench` prints).
    public let processCPUMillisecondsPerFrame: Double
    /// `CLOCK_THREAD_CPUTIME_ID` summed around each `encode` ÷ frames.
    public let threadCPUMillisecondsPerFrame: Double
    public let framesPerSecond: Double
    public let bytes: Int
}

/// Loads a Y4M clip into memory and encodes it; call on a dedicated thread (encoding blocks).
public final class VP8EncodeBench {
    public let path: String
    public let frames: [I420Frame]

    /// Reads up to `frameLimit` frames with synthetic timing (frame n at n/30 s, as `vp8bench` stamps them).
    public init(path: String, frameLimit: Int) throws(BenchError) {
        let source = Y4MFileSource(path: path, loops: false, timing: .synthetic(start: .zero))
        var frames: [I420Frame] = []
        do {
            try source.open()
            defer { source.close() }
            while frames.count < frameLimit, let frame = try source.nextFrame() { frames.append(frame) }
        } catch {
            // End of stream just means a shorter clip: the caller checks the count.
            guard case .endOfStream = error else { throw .video(error) }
        }
        guard !frames.isEmpty else { throw .clipMismatch(path: path, detail: "no frames") }
        self.path = path
        self.frames = frames
    }

    public var width: Int { frames[0].width }
    public var height: Int { frames[0].height }

    /// One timed pass over every frame with a fresh encoder.
    public func run(configuration: VP8EncoderConfiguration) throws(BenchError) -> VP8EncodeMeasurement {
        let encoder: VP8Encoder
        do { encoder = try VP8Encoder(configuration: configuration, rtpTimestampOffset: 0) } catch { throw .vpx(error) }
        var latencies = [Double](repeating: 0, count: frames.count)
        var threadCPU = Duration.zero
        var bytes = 0
        let processStart = CPUClock.process()
        let wallStart = MonotonicClock.now()
        for index in frames.indices {
            let threadBefore = CPUClock.thread()
            let before = MonotonicClock.now()
            let encoded: [EncodedFrame]
            do { encoded = try encoder.encode(frames[index]) } catch { throw .vpx(error) }
            let after = MonotonicClock.now()
            threadCPU += CPUClock.thread() - threadBefore
            latencies[index] = (after - before).benchMilliseconds
            for frame in encoded { bytes += frame.bytes.count }
        }
        let wall = (MonotonicClock.now() - wallStart).benchMilliseconds
        let processCPU = (CPUClock.process() - processStart).benchMilliseconds
        let count = Double(frames.count)
        return VP8EncodeMeasurement(
            width: width, height: height, frames: frames.count, latency: LatencySummary(milliseconds: latencies)!,
            processCPUMillisecondsPerFrame: processCPU / count,
            threadCPUMillisecondsPerFrame: threadCPU.benchMilliseconds / count,
            framesPerSecond: count / (wall / 1000), bytes: bytes)
    }
}

@available(*, unavailable, message: "a VP8EncodeBench belongs to one benchmark thread")
extension VP8EncodeBench: Sendable {}
