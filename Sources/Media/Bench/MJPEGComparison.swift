/// A webcam's 4:2:2 MJPEG decoded to I420: our `JPEGDecoder` in process against raw TurboJPEG in C
/// (`Tests/bench/mjpegbench.c`: the same `tjDecompressToYUVPlanes` + chroma rows averaged, and
/// `tjDecompress2` to RGB for reference), alternating passes over one clip, CPU time per frame (the decoding
/// thread's for ours, the single-threaded process's for the baseline), medians over the passes.
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
    /// Our CPU milliseconds per frame, one value per pass.
    public let ours: [Double]

    /// Ours ÷ raw doing the same work (YUV planes + 4:2:0); nil without a raw side.
    public var ratio: Double? {
        guard let raw = RunStatistics.median(raw.map(\.yuvMillisecondsPerFrame)), let ours = RunStatistics.median(ours), raw > 0
        else { return nil }
        return ours / raw
    }

    /// Ours ÷ raw `tjDecompress2` to RGB.
    public var ratioToRGB: Double? {
        guard let raw = RunStatistics.median(raw.map(\.rgbMillisecondsPerFrame)), let ours = RunStatistics.median(ours), raw > 0
        else { return nil }
        return ours / raw
    }

    public static func run(
        clipDirectory: String, width: Int, height: Int, frames: Int, repeats: Int, mjpegbench: String?,
        invocation: String, emit: (String) -> Void
    ) throws(BenchError) -> MJPEGComparison {
        let path = MJPEGClip.path(directory: clipDirectory, width: width, height: height)
        try MJPEGClip.write(width: width, height: height, frames: frames, to: path)
        let clip = try MJPEGClip.read(path)
        emit("$ \(invocation)")
        emit("    ours: in-process JPEGDecoder.decode(_:into:) on \(path) (\(clip.count) frames, 4:2:2)")
        let arguments = [path, "\(width)", "\(height)", "1"]
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
            let start = CPUClock.thread()
            try decodeAll(clip, decoder: decoder, into: &frame, path: path)
            let perFrame = (CPUClock.thread() - start).benchMilliseconds / Double(clip.count)
            ours.append(perFrame)
            emit("    pass \(pass + 1) ours: frames=\(clip.count) ms_per_frame=\(BenchFormat.fixed(perFrame, 4))")
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

    /// One summary line: `MJPEG 640x480: ours 1.234 ms/frame, raw 1.200 (×1.03), tjDecompress2 RGB 1.900 (×0.65)`.
    public var summary: String {
        let ourMedian = RunStatistics.median(ours) ?? 0
        var line = "MJPEG decode \(width)x\(height): ours \(BenchFormat.fixed(ourMedian)) ms/frame"
        if let raw = RunStatistics.median(raw.map(\.yuvMillisecondsPerFrame)), let ratio {
            line += ", raw tjDecompressToYUVPlanes+4:2:0 \(BenchFormat.fixed(raw)) (ratio \(BenchFormat.fixed(ratio, 2)))"
        }
        if let rgb = RunStatistics.median(raw.map(\.rgbMillisecondsPerFrame)), let ratioToRGB {
            line += ", raw tjDecompress2 RGB \(BenchFormat.fixed(rgb)) (ratio \(BenchFormat.fixed(ratioToRGB, 2)))"
        }
        return line
    }
}
