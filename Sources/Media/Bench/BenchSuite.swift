import Foundation
import IntercomPlatform

/// `intercomd bench`: the real-time pipeline run (latency, CPU, memory) first, so `VmHWM` is not inflated by
/// the clips the encode comparisons hold in memory; then the VP8 and Opus comparisons against the raw C
/// baselines; then one summary table. Every line goes through `emit`.
public enum BenchSuite {
    public static func writeClips(plan: BenchPlan, overwrite: Bool, emit: (String) -> Void) throws(BenchError) {
        do { try Directories.createIfMissing(plan.clipDirectory, permissions: 0o755) } catch { throw .system(error) }
        for size in plan.sizes {
            let path = BenchClips.videoPath(directory: plan.clipDirectory, width: size.width, height: size.height)
            guard overwrite || !FileManager.default.fileExists(atPath: path) else { continue }
            do { try BenchClips.writeVideo(width: size.width, height: size.height, frames: plan.frames, to: path) }
            catch { throw .system(error) }
            emit("wrote \(path) (\(plan.frames) test-pattern frames, 30 fps)")
        }
        let audio = BenchClips.audioPath(directory: plan.clipDirectory)
        if overwrite || !FileManager.default.fileExists(atPath: audio) {
            do { try BenchClips.writeAudio(seconds: plan.audioSeconds, to: audio) } catch { throw .wav(error) }
            emit("wrote \(audio) (\(plan.audioSeconds) s, 48 kHz mono, 16-bit)")
        }
    }

    public static func run(plan: BenchPlan, emit: (String) -> Void) throws(BenchError) {
        emit("intercomd bench — \(UTCDate.now()) — libvpx \(MediaLibraries.libvpx), \(MediaLibraries.libopus), "
            + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs")
        var latency: [CaptureLatencyMeasurement] = []
        if plan.latencyFrames > 0 {
            emit("\n== Capture → encoded frame (TestPatternSource real time → mailbox → VP8Encoder thread → broadcaster)")
            emit("$ \(plan.invocation)")
            for size in plan.sizes {
                let m = try CaptureLatencyBench.run(configuration: plan.videoConfiguration(for: size), frames: plan.latencyFrames)
                latency.append(m)
                emit("    \(size.label): \(m.framesEncoded) frames, latency ms p50=\(BenchFormat.fixed(m.latency.p50)) "
                    + "p95=\(BenchFormat.fixed(m.latency.p95)) p99=\(BenchFormat.fixed(m.latency.p99)) "
                    + "max=\(BenchFormat.fixed(m.latency.max)), dropped before encode \(m.framesDroppedBeforeEncode), "
                    + "delivered \(m.framesDelivered) (incl. \(m.warmUpFrames) warm-up), CPU \(BenchFormat.fixed(m.processCPUPercentOfOneCore, 1))% of one core, "
                    + "VmRSS \(m.memory.residentKiB) kB, VmHWM \(m.memory.peakResidentKiB) kB")
            }
        }
        try writeClips(plan: plan, overwrite: false, emit: emit)
        var video: [VP8Comparison] = []
        for size in plan.sizes {
            emit("\n== VP8 encode \(size.label) @ \(size.kbps) kb/s, \(plan.frames) frames, cpu-used \(plan.cpuUsed), "
                + "\(plan.threads) thread(s), \(plan.repeats) alternating passes")
            video.append(try VP8Comparison.run(plan: plan, size: size, emit: emit))
        }
        emit("\n== Opus encode, 48 kHz mono, 20 ms frames, \(plan.opusKbps) kb/s, complexity \(plan.opusComplexity), VoIP, FEC on")
        let opus = try OpusComparison.run(plan: plan, emit: emit)
        let mjpeg = try runMJPEG(plan: plan, emit: emit)
        let snapshots = try runSnapshots(plan: plan, emit: emit)
        emit("\n" + BenchSummary.text(plan: plan, video: video, opus: opus, latency: latency))
        for comparison in mjpeg { emit(comparison.summary) }
        for measurement in snapshots { emit(measurement.summary) }
    }

    /// The MJPEG decode comparison alone (`intercomd bench --only mjpeg`), each size's summary line last.
    @discardableResult
    public static func runMJPEG(plan: BenchPlan, emit: (String) -> Void) throws(BenchError) -> [MJPEGComparison] {
        do { try Directories.createIfMissing(plan.clipDirectory, permissions: 0o755) } catch { throw .system(error) }
        var comparisons: [MJPEGComparison] = []
        for (width, height) in plan.mjpegSizes {
            emit("\n== MJPEG decode \(width)x\(height) (4:2:2, like a webcam) to I420, \(plan.mjpegFrames) frames, "
                + "\(plan.repeats) alternating passes")
            let comparison = try MJPEGComparison.run(
                clipDirectory: plan.clipDirectory, width: width, height: height, frames: plan.mjpegFrames,
                repeats: plan.repeats, mjpegbench: plan.mjpegbenchPath, invocation: plan.invocation, emit: emit)
            emit(comparison.summary)
            comparisons.append(comparison)
        }
        return comparisons
    }
}

extension BenchSuite {
    /// The ring snapshot's JPEG encode (`intercomd bench --only snapshot`), 640x480 and 1280x720.
    @discardableResult
    public static func runSnapshots(plan: BenchPlan, emit: (String) -> Void) throws(BenchError) -> [SnapshotEncodeMeasurement] {
        emit("\n== Ring snapshot: JPEGEncoder q85 4:2:0 on test-pattern frames, \(plan.mjpegFrames) encodes per size")
        emit("$ \(plan.invocation)")
        var measurements: [SnapshotEncodeMeasurement] = []
        for (width, height) in SnapshotEncodeBench.sizes {
            let measurement = try SnapshotEncodeBench.run(width: width, height: height, count: plan.mjpegFrames)
            emit("    " + measurement.summary)
            measurements.append(measurement)
        }
        return measurements
    }
}

/// The current UTC time as ISO 8601, for the report header.
enum UTCDate {
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }
}
