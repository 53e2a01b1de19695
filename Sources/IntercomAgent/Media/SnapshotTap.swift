import Media
import Synchronization

/// One-shot requests for the next camera frame, answered by the VP8 thread with the frame it has just taken
/// from the run's `LatestValueMailbox`, the one owner of "the latest frame": no second buffer, no copy
/// (`I420Frame` storage is copy-on-write), and with nobody waiting only one relaxed atomic load per frame.
final class SnapshotTap: Sendable {
    private let pending = Atomic<Bool>(false)
    private let waiters = Mutex<[UInt64: CheckedContinuation<I420Frame?, Never>]>([:])
    private let nextID = Atomic<UInt64>(0)

    /// The next frame the encoder takes, or nil when none arrives within `timeout` (no media running).
    func next(timeout: Duration) async -> I420Frame? {
        let id = nextID.add(1, ordering: .relaxed).newValue
        return await withCheckedContinuation { continuation in
            waiters.withLock {
                $0[id] = continuation
                pending.store(true, ordering: .releasing)
            }
            Task {
                try? await Task.sleep(for: timeout)
                self.waiters.withLock { $0.removeValue(forKey: id) }?.resume(returning: nil)
            }
        }
    }

    /// Called by the VP8 thread with each frame it takes; hands it to whoever waits.
    func offer(_ frame: I420Frame) {
        guard pending.load(ordering: .relaxed) else { return }
        let waiting = waiters.withLock { waiters in
            pending.store(false, ordering: .releasing)
            defer { waiters = [:] }
            return waiters
        }
        for continuation in waiting.values { continuation.resume(returning: frame) }
    }
}
