import Foundation
import IntercomPlatform
import Synchronization

/// Drives a `VideoSource` on its own thread: blocking device calls and pacing sleeps never touch Swift
/// concurrency's cooperative pool. Each frame goes to `deliver` (typically `LatestValueMailbox.put` for the
/// encoder thread, or an `AsyncStream` continuation via `stream`). The source is created on the thread by
/// `makeSource` and never leaves it, which is why sources need not be `Sendable`.
public final class VideoCaptureThread: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<VideoSourceError?>(nil)

    /// Starts the thread at once. It opens the source, loops until `stop()` or a source error, closes the
    /// source, then calls `onFinish` with the error that ended it (nil after `stop()`).
    public init(
        name: String = "video-capture",
        makeSource: @escaping @Sendable () -> any VideoSource,
        deliver: @escaping @Sendable (I420Frame) -> Void,
        onFinish: @escaping @Sendable (VideoSourceError?) -> Void = { _ in }
    ) {
        NamedThread.start(name) { [self] in
            let error = run(source: makeSource(), deliver: deliver)
            outcome.withLock { $0 = error }
            onFinish(error)
            done.signal()
        }
    }

    /// Asks the thread to stop after the current `nextFrame()` call (at most about one frame interval).
    public func stop() { stopRequested.store(true, ordering: .releasing) }

    /// Blocks until the thread has finished, up to `timeout`; true if it did. Dedicated threads and tests
    /// only: never from the cooperative pool.
    public func join(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let finished = done.wait(timeout: .now() + Double(seconds) + Double(attoseconds) / 1e18) == .success
        if finished { done.signal() }  // let later joins succeed too
        return finished
    }

    /// The error that ended the thread, if it ended with one.
    public var failure: VideoSourceError? { outcome.withLock { $0 } }

    private func run(source: any VideoSource, deliver: (I420Frame) -> Void) -> VideoSourceError? {
        do {
            try source.open()
        } catch {
            return error
        }
        defer { source.close() }
        while !stopRequested.load(ordering: .acquiring) {
            do {
                if let frame = try source.nextFrame() { deliver(frame) }
            } catch {
                return error
            }
        }
        return nil
    }

    /// A capture thread whose frames arrive as an `AsyncStream` that keeps only the newest frame (a slow
    /// consumer skips frames instead of queueing latency). The stream finishes when the thread ends;
    /// cancelling the consumer stops the thread.
    public static func stream(
        name: String = "video-capture", makeSource: @escaping @Sendable () -> any VideoSource
    ) -> (thread: VideoCaptureThread, frames: AsyncStream<I420Frame>) {
        let (frames, continuation) = AsyncStream.makeStream(of: I420Frame.self, bufferingPolicy: .bufferingNewest(1))
        let thread = VideoCaptureThread(
            name: name, makeSource: makeSource,
            deliver: { continuation.yield($0) },
            onFinish: { _ in continuation.finish() }
        )
        continuation.onTermination = { _ in thread.stop() }
        return (thread, frames)
    }
}
