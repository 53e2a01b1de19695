/// Alternating raw `opusbench` and in-process `OpusEncoder` passes over one WAV.
public struct OpusComparison: Sendable {
    public let raw: [OpusBaselineFigures]
    public let ours: [OpusEncodeMeasurement]

    public var meanRatio: Double? {
        guard let raw = RunStatistics.median(raw.map(\.encodeMeanMicroseconds)),
              let ours = RunStatistics.median(ours.map(\.encodeMeanMicroseconds)), raw > 0 else { return nil }
        return ours / raw
    }

    public var pairRatios: [Double] {
        zip(ours, raw).map { $0.encodeMeanMicroseconds / $1.encodeMeanMicroseconds }
    }

    public static func run(plan: BenchPlan, emit: (String) -> Void) throws(BenchError) -> OpusComparison {
        let path = BenchClips.audioPath(directory: plan.clipDirectory)
        let wav: WAVFile
        do { wav = try WAVFile.read(from: path) } catch { throw .wav(error) }
        let configuration = OpusConfiguration.benchmarkBaseline(
            channels: 1, kbps: plan.opusKbps, complexity: plan.opusComplexity)
        emit("$ \(plan.invocation)")
        emit("    ours: in-process OpusEncoder(configuration: .benchmarkBaseline(channels: 1, kbps: \(plan.opusKbps), "
            + "complexity: \(plan.opusComplexity))) on \(path)")
        if let opusbench = plan.opusbenchPath {
            emit("$ \(BaselineProcess.commandLine(opusbench, plan.opusbenchArguments))")
        }
        var raw: [OpusBaselineFigures] = []
        var ours: [OpusEncodeMeasurement] = []
        try AlternatingPasses.run(repeats: plan.repeats) { (pass: Int) throws(BenchError) in
            guard let opusbench = plan.opusbenchPath else { return }
            let result = try BaselineProcess.runParsed(opusbench, plan.opusbenchArguments, parse: OpusBaselineFigures.init(parsing:))
            raw.append(result.figures)
            emit("    pass \(pass + 1) raw : \(result.output.trimmingTrailingNewlines)")
        } ours: { (pass: Int) throws(BenchError) in
            let m = try OpusEncodeBench.run(wav: wav, configuration: configuration)
            ours.append(m)
            emit("    pass \(pass + 1) ours: OpusEncoder ch=1 kbps=\(plan.opusKbps) complexity=\(plan.opusComplexity) "
                + "app=voip frames=\(m.frames) | enc us/frame mean=\(BenchFormat.fixed(m.encodeMeanMicroseconds, 1)) "
                + "p99=\(BenchFormat.fixed(m.encodeP99Microseconds, 1)) | bytes=\(m.bytes)")
        }
        return OpusComparison(raw: raw, ours: ours)
    }
}
