import ArgumentParser
import IntercomPlatform
import Media

/// `intercomd bench`: our media pipeline against raw libvpx/libopus (bench/vp8bench.c, bench/opusbench.c) and
/// our MJPEG decoding against raw TurboJPEG (Tests/bench/mjpegbench.c) on the same frames and settings, with
/// every command line printed (docs/benchmarks.md).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark VP8/Opus encoding against raw libvpx/libopus, capture-to-encode latency and memory."
    )

    @Option(help: "Directory for the Y4M and WAV clips both sides encode.")
    var clipDirectory = "/tmp/intercom-bench"

    @Flag(help: "Only write the clips (overwriting), then exit.")
    var writeClips = false

    @Option(help: "The built bench/vp8bench.c; omit to measure our side only.")
    var vp8bench: String?

    @Option(help: "The built bench/opusbench.c; omit to measure our side only.")
    var opusbench: String?

    @Option(help: "The built Tests/bench/mjpegbench.c; omit to measure our MJPEG decoding only.")
    var mjpegbench: String?

    @Option(help: "Run only one part: mjpeg (the MJPEG decode comparison) or snapshot (the ring snapshot's JPEG encode).")
    var only: String?

    @Option(help: "Comma-separated WIDTHxHEIGHT@KBPS (default 320x240@300,640x480@800,1280x720@1500).")
    var sizes: String?

    @Option(help: "Frames per clip and per encode pass.")
    var frames = 300

    @Option(help: "Alternating raw/ours passes per measurement (median and range reported).")
    var repeats = 3

    @Option(help: "VP8E_SET_CPUUSED; negative = fixed speed.")
    var cpuUsed: Int32 = -12

    @Option(help: "VP8 encoder threads (g_threads).")
    var threads = 1

    @Option(help: "Frames per size in the real-time capture → encode run (0 skips it).")
    var latencyFrames = 150

    @Option(help: "Opus complexity (0…10).")
    var opusComplexity = 10

    func validate() throws {
        guard frames > 0, repeats > 0, latencyFrames >= 0 else {
            throw ValidationError("--frames and --repeats must be positive, --latency-frames not negative")
        }
        guard (1...16).contains(threads), (-16...16).contains(cpuUsed), (0...10).contains(opusComplexity) else {
            throw ValidationError("--threads is 1…16, --cpu-used −16…16, --opus-complexity 0…10")
        }
        _ = try parsedSizes()
        if let only, only != "mjpeg", only != "snapshot" { throw ValidationError("--only takes mjpeg or snapshot") }
    }

    func run() throws {
        var plan = BenchPlan(clipDirectory: clipDirectory, invocation: CommandLine.arguments.joined(separator: " "))
        plan.sizes = try parsedSizes()
        plan.frames = frames
        plan.repeats = repeats
        plan.cpuUsed = cpuUsed
        plan.threads = threads
        plan.latencyFrames = latencyFrames
        plan.opusComplexity = opusComplexity
        plan.vp8benchPath = vp8bench
        plan.opusbenchPath = opusbench
        plan.mjpegbenchPath = mjpegbench
        do {
            if only == "mjpeg" {
                try BenchSuite.runMJPEG(plan: plan, emit: { print($0) })
            } else if only == "snapshot" {
                try BenchSuite.runSnapshots(plan: plan, emit: { print($0) })
            } else if writeClips {
                try BenchSuite.writeClips(plan: plan, overwrite: true, emit: { print($0) })
            } else {
                try BenchSuite.run(plan: plan, emit: { print($0) })
            }
        } catch {
            Terminal.error("intercomd bench: \(error)")
            throw ExitCode.failure
        }
    }

    private func parsedSizes() throws -> [BenchPlan.VideoSize] {
        guard let sizes else { return BenchPlan.defaultSizes }
        return try sizes.split(separator: ",").map { item in
            let parts = item.split(whereSeparator: { $0 == "x" || $0 == "@" }).compactMap { Int($0) }
            guard parts.count == 3, parts.allSatisfy({ $0 > 0 }), parts[0] % 2 == 0, parts[1] % 2 == 0 else {
                throw ValidationError("--sizes: '\(item)' is not WIDTHxHEIGHT@KBPS with even positive sizes")
            }
            return BenchPlan.VideoSize(width: parts[0], height: parts[1], kbps: parts[2])
        }
    }
}
