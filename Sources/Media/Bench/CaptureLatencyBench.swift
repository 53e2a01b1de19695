import Foundation
import IntercomPlatform
import Synchronization

/// The running capture → encode pipeline, as the agent wires it: a source (`TestPatternSource` in real time
/// for the benchmark, the real camera for `intercomd camera-test`) on a `VideoCaptureThread`, a
/// `LatestValueMailbox`, a `VP8Encoder` on its own thread publishing to an `EncodedFrameBroadcaster` with one
/// draining subscriber. Latency is the frame's capture timestamp to the moment its encoded frame is
/// published (`CLOCK_MONOTONIC`).
public struct CaptureLatencyMeasurement: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let framesEncoded: Int
    /// Capture timestamp → encoded frame published, milliseconds.
    public let latency: LatencySummary
    /// Frames the mailbox replaced before the encoder took them.
    public let framesDroppedBeforeEncode: Int
    /// Frames the subscriber received, warm-up included.
    public let framesDelivered: Int
    /// Frames encoded before measuring started (encoder and caches warming up).
    public let warmUpFrames: Int
    /// Process CPU over the run as a percentage of one core (capture + encode + fan-out).
    public let processCPUPercentOfOneCore: Double
    /// `VmRSS` / `VmHWM` after the last frame, with the pipeline still running.
    public let memory: ProcessMemory
}

public enum CaptureLatencyBench {
    /// Runs the pipeline until `frames` frames are encoded (the first `warmUpFrames` are not counted).
    /// `progress` hears the encoded-frame count about once a second. A source that fails (or delivers nothing
    /// for 2 s) ends the run with its error. Blocks the calling thread; never call from the cooperative pool.
    public static func run(
        configuration: VP8EncoderConfiguration, frames: Int, warmUpFrames: Int = 15,
        makeSource: (@Sendable () -> any VideoSource)? = nil, progress: (@Sendable (Int) -> Void)? = nil
    ) throws(BenchError) -> CaptureLatencyMeasurement {
        let mailbox = LatestValueMailbox<I420Frame>()
        let shared = PipelineRunState()
        let broadcaster = EncodedFrameBroadcaster(onKeyframeRequest: {})
        let subscription = broadcaster.subscribe(bufferDepth: 4)
        let drained = DispatchSemaphore(value: 0)
        Task.detached {
            for await _ in subscription.frames { shared.delivered.add(1, ordering: .relaxed) }
            drained.signal()
        }
        let capture = VideoCaptureThread(
            name: "bench-capture",
            makeSource: makeSource ?? {
                TestPatternSource(
                    width: configuration.width, height: configuration.height,
                    frameRate: FrameRate(configuration.framesPerSecond), timing: .realtime)
            },
            deliver: { mailbox.put($0) },
            onFinish: { _ in mailbox.close() })
        let finished = DispatchSemaphore(value: 0)
        let encoderThread = Thread {
            let result = encodeLoop(
                configuration: configuration, mailbox: mailbox, broadcaster: broadcaster,
                frames: frames, warmUpFrames: warmUpFrames, progress: progress)
            shared.outcome.withLock { $0 = result }
            finished.signal()
        }
        encoderThread.name = "bench-encoder"
        encoderThread.start()
        finished.wait()
        capture.stop()
        mailbox.close()
        _ = capture.join(timeout: .seconds(2))
        broadcaster.finish()
        _ = drained.wait(timeout: .now() + 2)
        let result = shared.outcome.withLock { $0 }!
        let run: PipelineRun
        do {
            run = try result.get()
        } catch {
            if case .pipelineStalled = error, let failure = capture.failure { throw .video(failure) }
            throw error
        }
        return CaptureLatencyMeasurement(
            width: configuration.width, height: configuration.height, framesEncoded: run.latencies.count,
            latency: LatencySummary(milliseconds: run.latencies)!,
            framesDroppedBeforeEncode: mailbox.droppedCount,
            framesDelivered: shared.delivered.load(ordering: .relaxed), warmUpFrames: warmUpFrames,
            processCPUPercentOfOneCore: run.cpuMilliseconds / run.wallMilliseconds * 100,
            memory: run.memory)
    }

    /// The encoder thread's body: returns the measured latencies (after warm-up), CPU and memory.
    private static func encodeLoop(
        configuration: VP8EncoderConfiguration, mailbox: LatestValueMailbox<I420Frame>,
        broadcaster: EncodedFrameBroadcaster, frames: Int, warmUpFrames: Int, progress: (@Sendable (Int) -> Void)?
    ) -> Result<PipelineRun, BenchError> {
        let encoder: VP8Encoder
        do { encoder = try VP8Encoder(configuration: configuration) } catch { return .failure(.vpx(error)) }
        var latencies: [Double] = []
        latencies.reserveCapacity(frames)
        var encodedCount = 0
        var cpuStart = CPUClock.process()
        var wallStart = MonotonicClock.now()
        var nextProgress = wallStart + .seconds(1)
        while latencies.count < frames {
            guard let frame = mailbox.take(timeout: .seconds(2)) else {
                return .failure(.pipelineStalled(framesEncoded: encodedCount))
            }
            let encoded: [EncodedFrame]
            do { encoded = try encoder.encode(frame) } catch { return .failure(.vpx(error)) }
            for packet in encoded { broadcaster.publish(packet) }
            let available = MonotonicClock.now()
            encodedCount += 1
            if let progress, available >= nextProgress {
                progress(encodedCount)
                nextProgress = available + .seconds(1)
            }
            if encodedCount == warmUpFrames {
                cpuStart = CPUClock.process()
                wallStart = available
            } else if encodedCount > warmUpFrames {
                latencies.append((available - frame.captureTime).benchMilliseconds)
            }
        }
        let cpu = (CPUClock.process() - cpuStart).benchMilliseconds
        let wall = (MonotonicClock.now() - wallStart).benchMilliseconds
        do {
            return .success(PipelineRun(
                latencies: latencies, cpuMilliseconds: cpu, wallMilliseconds: wall, memory: try ProcessMemory.current()))
        } catch {
            return .failure(.system(error))
        }
    }
}

/// What the encoder thread measured.
struct PipelineRun: Sendable {
    let latencies: [Double]
    let cpuMilliseconds: Double
    let wallMilliseconds: Double
    let memory: ProcessMemory
}

/// State shared between the benchmark's threads and the draining subscriber task.
final class PipelineRunState: Sendable {
    let delivered = Atomic<Int>(0)
    let outcome = Mutex<Result<PipelineRun, BenchError>?>(nil)
}
