/// A webcam's 4:2:2 MJPEG decoded to I420: our `JPEGDecoder` in process against raw TurboJPEG in C
/// (`Tests/bench/mjpegbench.c`: the same `tjDecompressToYUVPlanes` + chroma rows averaged, and
/// `tjDecompress2` to RGB for reference), alternating passes over one clip, CPU time per frame (the decoding
/// thread's for ours, the single-threaded process's for the baseline). The ratios compare the best pass of
/// each side: another process or a frequency step only ever adds CPU time to a pass, so the fastest pass is
/// the closest reading of the work itself (a CI run once saw three of five passes of ours 30 % slow while the
/// other two matched the baseline's). Medians are printed beside them.
public struct MJPEGComparison: Sendable {
    public struct RawFigures: Sendable, Equatable {
        public var frames: Int
        public var yuvMillisecondsPerFrame: Double
        public var rgbMillisecondsPerFrame: Double

        /// `frames=N yuv_ms_per_frame=X rgb_ms_per_frame=Y`.
        init?(parsing output: String) {
            var values: [String: Double] = [:]
            for field in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                let parts = field.split(separator: "=")
                if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
            }
            guard let frames = values["frames"], let yuv = values["yuv_ms_per_frame"], let rgb = values["rgb_ms_per_frame"]
            else { return nil }
            self.frames = Int(frames)
            yuvMillisecondsPerFrame = yuv
            rgbMillisecondsPerFrame = rgb
        }
    }

    public let width: Int
    public let height: Int
    public let raw: [RawFigures]
    /// Our CPU milliseconds per frame, one value per turn (the best of its passes, like the raw side's).
    public let ours: [Double]

    /// Best pass of ours ÷ best pass of raw doing the same work (YUV planes + 4:2:0); nil without a raw side.
    public var ratio: Double? {
        guard let raw = raw.map(\.yuvMillisecondsPerFrame).min(), let ours = ours.min(), raw > 0 else { return nil }
        return ours / raw
    }

    /// Best pass of ours ÷ best pass of raw `tjDecompress2` to RGB.
    public var ratioToRGB: Double? {
        guard let raw = raw.map(\.rgbMillisecondsPerFrame).min(), let ours = ours.min(), raw > 0 else { return nil }
        return ours / raw
    }

    /// Passes each side decodes per turn (the raw process prints the best of its own): three turns' worth of
    /// readings per process start, so a burst of load on a shared machine has to cover many short passes on
    /// one side to move the best of them.
    static let passesPerTurn = 3

    public static func run(
        clipDirectory: String, width: Int, height: Int, frames: Int, repeats: Int, mjpegbench: String?,
        invocation: String, emit: (String) -> Void
    ) throws(BenchError) -> MJPEGComparison {
        let path = MJPEGClip.path(directory: clipDirectory, width: width, height: height)
        try MJPEGClip.write(width: width, height: height, frames: frames, to: path)
        let clip = try MJPEGClip.read(path)
        emit("$ \(invocation)")
        emit("    ours: in-process JPEGDecoder.decode(_:into:) on \(path) (\(clip.count) frames, 4:2:2)")
        let arguments = [path, "\(width)", "\(height)", "\(passesPerTurn)"]
        if let mjpegbench { emit("$ \(BaselineProcess.commandLine(mjpegbench, arguments))") }
        let decoder: JPEGDecoder
        do { decoder = try JPEGDecoder() } catch { throw .clipMismatch(path: path, detail: "\(error)") }
        var frame = I420Frame(width: width, height: height)
        // Warm-up, not counted (the C side does the same).
        try decodeAll(clip, decoder: decoder, into: &frame, path: path)
        var raw: [RawFigures] = []
        var ours: [Double] = []
        try AlternatingPasses.run(repeats: repeats) { (pass: Int) throws(BenchError) in
            guard let mjpegbench else { return }
            let result = try BaselineProcess.runParsed(mjpegbench, arguments, parse: RawFigures.init(parsing:))
            raw.append(result.figures)
            emit("    pass \(pass + 1) raw : \(result.output.trimmingTrailingNewlines)")
        } ours: { (pass: Int) throws(BenchError) in
            // This thread's CPU time: the decoding runs here alone, like the C baseline's single thread, and
            // the process clock would also count whatever the runtime's other threads do meanwhile.
            var figures: [Double] = []
            for _ in 0..<passesPerTurn {
                let start = CPUClock.thread()
                try decodeAll(clip, decoder: decoder, into: &frame, path: path)
                figures.append((CPUClock.thread() - start).benchMilliseconds / Double(clip.count))
            }
            ours.append(figures.min()!)
            emit("    pass \(pass + 1) ours: frames=\(clip.count) ms_per_frame="
                 + figures.map { BenchFormat.fixed($0, 4) }.joined(separator: ","))
        }
        return MJPEGComparison(width: width, height: height, raw: raw, ours: ours)
    }

    private static func decodeAll(
        _ clip: [[UInt8]], decoder: JPEGDecoder, into frame: inout I420Frame, path: String
    ) throws(BenchError) {
        for (index, jpeg) in clip.enumerated() {
            let failure = jpeg.withUnsafeBytes { bytes -> JPEGError? in
                do throws(JPEGError) {
                    try decoder.decode(bytes, into: &frame)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw .clipMismatch(path: path, detail: "frame \(index): \(failure)") }
        }
    }

    /// One summary line: `MJPEG decode 640x480: ours 1.170 ms/frame, raw tjDecompressToYUVPlanes+4:2:0 1.150 (ratio
    /// 1.02), raw tjDecompress2 RGB 1.160 (ratio 1.01), best of 7 turns of 3 passes; medians ours 1.180, raw 1.160`.
    public var summary: String {
        let ourBest = ours.min() ?? 0
        var line = "MJPEG decode \(width)x\(height): ours \(BenchFormat.fixed(ourBest)) ms/frame"
        if let raw = raw.map(\.yuvMillisecondsPerFrame).min(), let ratio {
            line += ", raw tjDecompressToYUVPlanes+4:2:0 \(BenchFormat.fixed(raw)) (ratio \(BenchFormat.fixed(ratio, 2)))"
        }
        if let rgb = raw.map(\.rgbMillisecondsPerFrame).min(), let ratioToRGB {
            line += ", raw tjDecompress2 RGB \(BenchFormat.fixed(rgb)) (ratio \(BenchFormat.fixed(ratioToRGB, 2)))"
        }
        line += ", best of \(ours.count) turns of \(Self.passesPerTurn) passes; medians ours \(BenchFormat.fixed(RunStatistics.median(ours) ?? 0))"
        if let rawMedian = RunStatistics.median(raw.map(\.yuvMillisecondsPerFrame)) {
            line += ", raw \(BenchFormat.fixed(rawMedian))"
        }
        return line
    }
}
