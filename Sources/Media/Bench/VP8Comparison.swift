/// Alternating raw `vp8bench` and in-process `VP8Encoder` passes over one clip, summarised by medians.
public struct VP8Comparison: Sendable {
    public let size: BenchPlan.VideoSize
    public let raw: [VP8BaselineFigures]
    public let ours: [VP8EncodeMeasurement]

    /// Median CPU ms/frame of ours ÷ median of raw; nil without a raw side.
    public var cpuRatio: Double? {
        guard let raw = RunStatistics.median(raw.map(\.cpuMillisecondsPerFrame)),
              let ours = RunStatistics.median(ours.map(\.processCPUMillisecondsPerFrame)), raw > 0 else { return nil }
        return ours / raw
    }

    /// Ratios of each alternating pair (ours ÷ raw), for the spread.
    public var pairRatios: [Double] {
        zip(ours, raw).map { $0.processCPUMillisecondsPerFrame / $1.cpuMillisecondsPerFrame }
    }

    /// Median-of-runs ratio for a wall-latency statistic.
    public func latencyRatio(_ ourValue: (LatencySummary) -> Double, _ rawValue: (VP8BaselineFigures) -> Double) -> Double? {
        guard let raw = RunStatistics.median(raw.map(rawValue)),
              let ours = RunStatistics.median(ours.map { ourValue($0.latency) }), raw > 0 else { return nil }
        return ours / raw
    }

    /// Runs `plan.repeats` alternating passes (raw first in odd passes, ours first in even ones, so neither
    /// side always runs on a freshly warmed cache), reporting each pass through `emit`.
    public static func run(
        plan: BenchPlan, size: BenchPlan.VideoSize, emit: (String) -> Void
    ) throws(BenchError) -> VP8Comparison {
        let path = BenchClips.videoPath(directory: plan.clipDirectory, width: size.width, height: size.height)
        let bench = try VP8EncodeBench(path: path, frameLimit: plan.frames)
        guard bench.frames.count == plan.frames, bench.width == size.width, bench.height == size.height else {
            throw .clipMismatch(path: path, detail: "holds \(bench.frames.count) frames of \(bench.width)x\(bench.height)")
        }
        let configuration = plan.videoConfiguration(for: size)
        emit("$ \(plan.invocation)")
        emit("    ours: in-process VP8Encoder(configuration: .benchmarkBaseline(width: \(size.width), height: "
            + "\(size.height), targetBitrateKbps: \(size.kbps), cpuUsed: \(plan.cpuUsed), threads: \(plan.threads))) on \(path)")
        if let vp8bench = plan.vp8benchPath {
            emit("$ \(BaselineProcess.commandLine(vp8bench, plan.vp8benchArguments(for: size)))")
        }
        var raw: [VP8BaselineFigures] = []
        var ours: [VP8EncodeMeasurement] = []
        try AlternatingPasses.run(repeats: plan.repeats) { (pass: Int) throws(BenchError) in
            guard let vp8bench = plan.vp8benchPath else { return }
            let result = try BaselineProcess.runParsed(
                vp8bench, plan.vp8benchArguments(for: size), parse: VP8BaselineFigures.init(parsing:))
            raw.append(result.figures)
            emit("    pass \(pass + 1) raw : \(result.output.trimmingTrailingNewlines)")
        } ours: { (pass: Int) throws(BenchError) in
            let measurement = try bench.run(configuration: configuration)
            ours.append(measurement)
            emit("    pass \(pass + 1) ours: " + describe(measurement, plan: plan, size: size))
        }
        return VP8Comparison(size: size, raw: raw, ours: ours)
    }

    /// One pass of ours in the same shape as `vp8bench`'s line.
    static func describe(_ m: VP8EncodeMeasurement, plan: BenchPlan, size: BenchPlan.VideoSize) -> String {
        let f = BenchFormat.fixed
        return "VP8Encoder \(m.width)x\(m.height) frames=\(m.frames) cpu_used=\(plan.cpuUsed) threads=\(plan.threads) "
            + "kbps=\(size.kbps) | fps=\(f(m.framesPerSecond, 1)) wall_ms/f mean=\(f(m.latency.mean, 3)) "
            + "p50=\(f(m.latency.p50, 3)) p95=\(f(m.latency.p95, 3)) p99=\(f(m.latency.p99, 3)) max=\(f(m.latency.max, 3)) "
            + "| cpu_ms/f=\(f(m.processCPUMillisecondsPerFrame, 3)) thread_cpu_ms/f=\(f(m.threadCPUMillisecondsPerFrame, 3)) "
            + "| bytes=\(m.bytes)"
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
