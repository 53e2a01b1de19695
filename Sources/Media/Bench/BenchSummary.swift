/// The final tables of `intercomd bench`.
enum BenchSummary {
    static func text(
        plan: BenchPlan, video: [VP8Comparison], opus: OpusComparison, latency: [CaptureLatencyMeasurement]
    ) -> String {
        let f = BenchFormat.fixed
        let s = BenchFormat.spread
        var sections: [String] = []
        let videoRows = video.map { c -> [String] in
            let ratio = c.cpuRatio.map { f($0, 3) } ?? "n/a"
            let pairs = c.pairRatios
            let pairRange = pairs.isEmpty ? "" : " (\(f(pairs.min()!, 2))–\(f(pairs.max()!, 2)))"
            let verdict = c.cpuRatio.map { $0 <= 1.10 ? "ok" : "OVER" } ?? ""
            return [
                c.size.label, "\(c.size.kbps)",
                s(c.raw.map(\.cpuMillisecondsPerFrame), 3), s(c.ours.map(\.processCPUMillisecondsPerFrame), 3),
                f(RunStatistics.median(c.ours.map(\.threadCPUMillisecondsPerFrame)) ?? .nan, 3),
                ratio + pairRange + " " + verdict,
                p(c.raw.map(\.p50), c.raw.map(\.p95), c.raw.map(\.p99)),
                p(c.ours.map(\.latency.p50), c.ours.map(\.latency.p95), c.ours.map(\.latency.p99)),
                c.latencyRatio({ $0.p99 }, { $0.p99 }).map { f($0, 2) } ?? "n/a",
                "\(median(c.raw.map { Double($0.bytes) }))/\(median(c.ours.map { Double($0.bytes) }))",
            ]
        }
        sections.append("VP8 encode (CPU ms/frame = process CPU ÷ frames; median (min–max) of \(plan.repeats) passes; "
            + "ratio = ours ÷ raw, target ≤ 1.10)\n" + BenchFormat.table(
            ["size", "kb/s", "raw cpu ms/f", "ours cpu ms/f", "ours thread cpu", "ratio (pairs)", "raw wall p50/p95/p99",
             "ours wall p50/p95/p99", "p99 ratio", "bytes raw/ours"], videoRows))
        let opusRow = [
            "mono \(plan.opusKbps) kb/s c\(plan.opusComplexity)",
            s(opus.raw.map(\.encodeMeanMicroseconds), 1), s(opus.ours.map(\.encodeMeanMicroseconds), 1),
            (opus.meanRatio.map { f($0, 3) } ?? "n/a")
                + (opus.pairRatios.isEmpty ? "" : " (\(f(opus.pairRatios.min()!, 2))–\(f(opus.pairRatios.max()!, 2)))"),
            "\(f(RunStatistics.median(opus.raw.map(\.encodeP99Microseconds)) ?? .nan, 1))/"
                + "\(f(RunStatistics.median(opus.ours.map(\.encodeP99Microseconds)) ?? .nan, 1))",
        ]
        sections.append("Opus encode (thread CPU µs per 20 ms frame)\n" + BenchFormat.table(
            ["stream", "raw mean µs", "ours mean µs", "ratio (pairs)", "p99 raw/ours µs"], [opusRow]))
        if !latency.isEmpty {
            let rows = latency.map { m in
                ["\(m.width)x\(m.height)", "\(m.framesEncoded)", f(m.latency.p50, 2), f(m.latency.p95, 2), f(m.latency.p99, 2),
                 "\(m.framesDroppedBeforeEncode)", f(m.processCPUPercentOfOneCore, 1),
                 "\(m.memory.residentKiB / 1024)", "\(m.memory.peakResidentKiB / 1024)"]
            }
            sections.append("Capture → encoded frame, real time 30 fps (ms), pipeline CPU and memory after the run\n"
                + BenchFormat.table(["size", "frames", "p50", "p95", "p99", "dropped", "CPU % core", "VmRSS MiB", "VmHWM MiB"], rows))
        }
        return sections.joined(separator: "\n\n")
    }

    private static func p(_ p50: [Double], _ p95: [Double], _ p99: [Double]) -> String {
        guard let a = RunStatistics.median(p50), let b = RunStatistics.median(p95), let c = RunStatistics.median(p99) else {
            return "n/a"
        }
        return "\(BenchFormat.fixed(a, 2))/\(BenchFormat.fixed(b, 2))/\(BenchFormat.fixed(c, 2))"
    }

    private static func median(_ values: [Double]) -> String {
        RunStatistics.median(values).map { String(Int($0)) } ?? "n/a"
    }
}
