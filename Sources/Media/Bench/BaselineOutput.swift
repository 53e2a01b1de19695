/// The figures printed by the raw C baselines, parsed from their one-line reports.
public struct VP8BaselineFigures: Sendable, Equatable {
    public var framesPerSecond: Double
    /// Wall milliseconds around `vpx_codec_encode` + `vpx_codec_get_cx_data`.
    public var mean: Double
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double
    /// `CLOCK_PROCESS_CPUTIME_ID` over the encode loop ÷ frames.
    public var cpuMillisecondsPerFrame: Double
    public var bytes: Int

    public init(
        framesPerSecond: Double, mean: Double, p50: Double, p95: Double, p99: Double, max: Double,
        cpuMillisecondsPerFrame: Double, bytes: Int
    ) {
        self.framesPerSecond = framesPerSecond
        self.mean = mean
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.max = max
        self.cpuMillisecondsPerFrame = cpuMillisecondsPerFrame
        self.bytes = bytes
    }

    /// Parses `vp8bench … | fps=… wall_ms/f mean=… p50=… p95=… p99=… max=… | cpu_ms/f=… | bytes=… (…)`.
    public init?(parsing output: String) {
        let fields = BaselineFields(output)
        guard let fps = fields["fps"], let mean = fields["mean"], let p50 = fields["p50"], let p95 = fields["p95"],
              let p99 = fields["p99"], let max = fields["max"], let cpu = fields["cpu_ms/f"],
              let bytes = fields["bytes"]
        else { return nil }
        self.init(framesPerSecond: fps, mean: mean, p50: p50, p95: p95, p99: p99, max: max,
                  cpuMillisecondsPerFrame: cpu, bytes: Int(bytes))
    }
}

/// `opusbench`'s encode figures (thread CPU µs around each `opus_encode`).
public struct OpusBaselineFigures: Sendable, Equatable {
    public var frames: Int
    public var encodeMeanMicroseconds: Double
    public var encodeP99Microseconds: Double
    public var bytes: Int

    public init(frames: Int, encodeMeanMicroseconds: Double, encodeP99Microseconds: Double, bytes: Int) {
        self.frames = frames
        self.encodeMeanMicroseconds = encodeMeanMicroseconds
        self.encodeP99Microseconds = encodeP99Microseconds
        self.bytes = bytes
    }

    /// Parses `opusbench … frames=N | enc us/frame mean=… p99=… | dec us/frame=… | … | bytes=…`.
    public init?(parsing output: String) {
        let fields = BaselineFields(output)
        guard let frames = fields["frames"], let mean = fields["mean"], let p99 = fields["p99"],
              let bytes = fields["bytes"]
        else { return nil }
        self.init(frames: Int(frames), encodeMeanMicroseconds: mean, encodeP99Microseconds: p99, bytes: Int(bytes))
    }
}

/// The `key=number` tokens of a baseline report (first occurrence wins).
struct BaselineFields {
    private var values: [String: Double] = [:]

    init(_ output: String) {
        for token in output.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            let parts = token.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, values[String(parts[0])] == nil, let number = Double(parts[1]) else { continue }
            values[String(parts[0])] = number
        }
    }

    subscript(key: String) -> Double? { values[key] }
}
