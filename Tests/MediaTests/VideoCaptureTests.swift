import IntercomPlatform
import Foundation
import Glibc
import Media
import Synchronization
import Testing

@Suite struct VideoCaptureTests {
    /// Events and frames seen from the capture thread, for assertions on the test's side.
    final class Recorder: Sendable {
        let events = Mutex<[(Duration, ReopeningVideoSource.Event)]>([])

        func record(_ event: ReopeningVideoSource.Event) {
            events.withLock { $0.append((MonotonicClock.now(), event)) }
        }
    }

    @Test func aSimulatedUnplugResumesFramesWithinFiveSeconds() async throws {
        let recorder = Recorder()
        let (thread, frames) = VideoCaptureThread.stream(name: "test-capture") {
            let camera = TestPatternSource(width: 64, height: 48, frameRate: FrameRate(100))
            let flaky = FaultInjectingVideoSource(wrapping: camera, failAfterFrames: 5, failingOpens: 2)
            return ReopeningVideoSource(
                wrapping: flaky, backoff: .init(initial: .milliseconds(20), maximum: .milliseconds(200)),
                pollInterval: .milliseconds(10), onEvent: recorder.record)
        }
        // A watchdog so a broken implementation fails instead of hanging.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(10))
            thread.stop()
        }
        var resumed = false
        for await frame in frames where frame.sequence >= 5 {
            resumed = true
            break
        }
        thread.stop()
        watchdog.cancel()
        #expect(thread.join(timeout: .seconds(5)))
        #expect(thread.failure == nil)

        let events = recorder.events.withLock { $0 }
        let kinds = events.map(\.1)
        #expect(kinds.count == 4)
        #expect(resumed)
        guard kinds.count == 4 else { return }
        guard case .lost(let error) = kinds[0], case .system(let system) = error else {
            Issue.record("first event should be the unplug, got \(kinds[0])")
            return
        }
        #expect(system.errno == ENODEV)
        for (index, attempt) in [(1, 1), (2, 2)] {
            guard case .reopenFailed(let failure, let number) = kinds[index] else {
                Issue.record("event \(index) should be a failed reopen, got \(kinds[index])")
                continue
            }
            #expect(number == attempt && failure.isDeviceLost)
        }
        #expect(kinds[3] == .reopened(afterAttempts: 3))
        // Timed on the capture thread (the reopen hands out a frame in the same call), not by when this task
        // got to run: other tests may keep the cooperative pool busy for seconds.
        #expect(events[3].0 - events[0].0 < .seconds(5))
    }

    @Test func aSourceErrorThatIsNotDeviceLossEndsTheThreadAndTheStream() async {
        let path = NSTemporaryDirectory() + "/missing-\(getpid()).y4m"
        let (thread, frames) = VideoCaptureThread.stream {
            Y4MFileSource(path: path)
        }
        var count = 0
        for await _ in frames { count += 1 }
        #expect(count == 0)
        #expect(thread.join(timeout: .seconds(5)))
        guard case .system(let error) = thread.failure else {
            Issue.record("expected the open failure, got \(String(describing: thread.failure))")
            return
        }
        #expect(error.errno == ENOENT)
    }

    @Test func theFileSourceRunsToTheEndOfTheFileOnTheCaptureThread() async throws {
        let path = NSTemporaryDirectory() + "/clip-\(getpid()).y4m"
        let pattern = TestPattern(width: 32, height: 16)
        let clip = (0..<4).map { pattern.frame(index: UInt64($0), bandValue: nil, captureTime: .zero) }
        try Y4MWriter.write(clip, frameRate: FrameRate(200), to: path)
        defer { unlink(path) }
        let delivered = Mutex<[I420Frame]>([])
        let thread = VideoCaptureThread(
            makeSource: { Y4MFileSource(path: path) },
            deliver: { frame in delivered.withLock { $0.append(frame) } })
        #expect(thread.join(timeout: .seconds(5)))
        #expect(thread.failure == .endOfStream)
        let frames = delivered.withLock { $0 }
        #expect(frames.map { $0.packedBytes() } == clip.map { $0.packedBytes() })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.captureTime - $0.captureTime >= .milliseconds(4) })
    }
}

@Suite struct LatestValueMailboxTests {
    @Test func theNewestValueWinsAndReplacedOnesAreCounted() {
        let mailbox = LatestValueMailbox<Int>()
        #expect(mailbox.put(1))
        #expect(!mailbox.put(2))
        #expect(!mailbox.put(3))
        #expect(mailbox.take(timeout: .zero) == 3)
        #expect(mailbox.droppedCount == 2)
        #expect(mailbox.take(timeout: .milliseconds(20)) == nil)
    }

    @Test func closingWakesABlockedConsumer() {
        let mailbox = LatestValueMailbox<Int>()
        let woke = DispatchSemaphore(value: 0)
        let result = Mutex<Int?>(-1)
        Thread {
            let value = mailbox.take(timeout: .seconds(30))
            result.withLock { $0 = value }
            woke.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        mailbox.close()
        #expect(woke.wait(timeout: .now() + 5) == .success)
        #expect(result.withLock { $0 } == nil)
        mailbox.put(9)
        #expect(mailbox.take(timeout: .zero) == nil)
    }

    @Test func aValuePutFromAnotherThreadWakesTheConsumer() {
        let mailbox = LatestValueMailbox<String>()
        Thread {
            Thread.sleep(forTimeInterval: 0.02)
            mailbox.put("frame")
        }.start()
        #expect(mailbox.take(timeout: .seconds(5)) == "frame")
    }
}
