/// Our side of the Opus comparison: `OpusEncoder` with `OpusConfiguration.benchmarkBaseline`, thread CPU time
/// around each `encode` (as `opusbench.c` puts `CLOCK_THREAD_CPUTIME_ID` around `opus_encode`).
public struct OpusEncodeMeasurement: Sendable, Equatable {
    public let frames: Int
    public let encodeMeanMicroseconds: Double
    public let encodeP99Microseconds: Double
    public let bytes: Int
}

public enum OpusEncodeBench {
    /// Encodes every whole 20 ms frame of `wav` once with a fresh encoder.
    public static func run(wav: WAVFile, configuration: OpusConfiguration) throws(BenchError) -> OpusEncodeMeasurement {
        let encoder: OpusEncoder
        do { encoder = try OpusEncoder(configuration: configuration) } catch { throw .opus(error) }
        let frameSamples = configuration.samplesPerFrame * configuration.channels
        let frameCount = wav.samples.count / frameSamples
        var costs = [Double](repeating: 0, count: frameCount)
        var bytes = 0
        // One copy outside the timed loop, so each call gets a pointer into it like `opusbench.c`'s buffer.
        let all = UnsafeMutableBufferPointer<Int16>.allocate(capacity: wav.samples.count)
        defer { all.deallocate() }
        _ = all.initialize(from: wav.samples)
        for index in 0..<frameCount {
            let frame = UnsafeBufferPointer(rebasing: all[index * frameSamples..<(index + 1) * frameSamples])
            let before = CPUClock.thread()
            let packet: [UInt8]
            do { packet = try encoder.encode(frame) } catch { throw .opus(error) }
            costs[index] = (CPUClock.thread() - before).benchMilliseconds * 1000
            bytes += packet.count
        }
        guard let summary = LatencySummary(milliseconds: costs) else {
            throw .clipMismatch(path: "WAV input", detail: "shorter than one \(configuration.frameDuration) frame")
        }
        return OpusEncodeMeasurement(
            frames: frameCount, encodeMeanMicroseconds: summary.mean, encodeP99Microseconds: summary.p99, bytes: bytes)
    }
}
