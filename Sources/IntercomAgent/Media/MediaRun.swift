import Dispatch
import Media
import Synchronization

/// One start-to-stop of the pipeline's threads (camera, VP8, Opus): begun when the first holder needs media
/// (`MediaService.setDemand`), stopped when the last one let go. Each run has its own stop flag and frame
/// mailbox, so a run that is winding down never sees the next run's frames, and counts its threads so the
/// next run can wait for them before it opens the camera and microphone (a quick stop-start never finds a
/// device still held by the previous run's thread).
final class MediaRun: Sendable {
    let number: Int
    let frames = LatestValueMailbox<I420Frame>()
    private let stopped = Atomic<Bool>(false)
    private let captureThreads = Mutex<[VideoCaptureThread]>([])
    private let threads = DispatchGroup()

    init(number: Int) {
        self.number = number
    }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Asks every thread of the run to finish after its current frame.
    func stop() {
        stopped.store(true, ordering: .releasing)
        for thread in captureThreads.withLock({ $0 }) { thread.stop() }
        frames.close()
    }

    /// Counts a thread of this run in; `threadEnded()` counts it out.
    func threadStarting() { threads.enter() }
    func threadEnded() { threads.leave() }

    /// A capture thread of the run, stopped with it (at once, if the run already stopped).
    func adopt(_ thread: VideoCaptureThread) {
        captureThreads.withLock { $0.append(thread) }
        if isStopped { thread.stop() }
    }

    /// A camera switch: the run's capture threads, asked to stop and no longer the run's (their replacement
    /// waits for them to let go of their devices).
    func releaseCaptureThreads() -> [VideoCaptureThread] {
        let released = captureThreads.withLock { threads in
            defer { threads = [] }
            return threads
        }
        for thread in released { thread.stop() }
        return released
    }

    /// Blocks until every thread of the run has ended. Pipeline threads only: never the cooperative pool.
    func waitUntilFinished() { threads.wait() }
}
