import ControlsCore
import IntercomPlatform
import Synchronization

/// Watches one button on a dedicated thread: kernel edges and level samples go through the sans-IO
/// `ButtonInterpreter`, and one `ButtonGesture` per human action comes out as an `AsyncStream`.
/// The thread blocks in `gpiod_line_event_wait` with a short timeout so that it notices `stop()` quickly and
/// can serve the interpreter's debounce and long-press deadlines.
public final class ButtonWatcher: Sendable {
    public struct Report: Sendable, Equatable {
        public var gesture: ButtonGesture
        public var at: MonotonicInstant
    }

    public let gestures: AsyncStream<Report>
    private let stopRequested = Atomic<Bool>(false)
    private let finished = Mutex<Bool>(false)
    private let failureBox = Mutex<GPIOError?>(nil)

    /// Longest blocking wait; bounds how long `stop()` takes.
    static let pollInterval: Duration = .milliseconds(100)

    /// Starts watching `line` (already requested with both edges). The watcher owns the line from now on and
    /// releases it when it stops.
    public init(name: String, line: sending any GPIOInputLine, timing: ButtonTiming, now: @escaping @Sendable () -> Duration = MonotonicClock.now) {
        let (stream, continuation) = AsyncStream.makeStream(of: Report.self, bufferingPolicy: .bufferingNewest(64))
        gestures = stream
        let box = LineBox(line)
        continuation.onTermination = { [weak self] _ in self?.stop() }
        NamedThread.start("gpio-\(name)") { [self] in
            self.watch(box.line, timing: timing, now: now, continuation: continuation)
        }
    }

    /// Asks the thread to stop; it releases the line and finishes the stream within `pollInterval`.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
    }

    /// True once the thread has released its line.
    public var hasFinished: Bool { finished.withLock { $0 } }

    /// The error that ended watching early (the line vanished, the chip went away), if any.
    public var failure: GPIOError? { failureBox.withLock { $0 } }

    private func watch(_ line: any GPIOInputLine, timing: ButtonTiming, now: () -> Duration,
                       continuation: AsyncStream<Report>.Continuation) {
        defer {
            line.release()
            finished.withLock { $0 = true }
            continuation.finish()
        }
        do throws(GPIOError) {
            var interpreter = ButtonInterpreter(timing: timing, isActive: try line.isActive(), at: MonotonicInstant(sinceBoot: now()))
            func emit(_ reports: [GestureReport]) {
                for report in reports { continuation.yield(Report(gesture: report.gesture, at: report.at)) }
            }
            while !stopRequested.load(ordering: .acquiring) {
                let current = MonotonicInstant(sinceBoot: now())
                var wait = Self.pollInterval
                if let deadline = interpreter.nextDeadline { wait = min(wait, max(.zero, deadline - current)) }
                let edges = try line.waitForEdges(timeout: wait)
                let received = MonotonicInstant(sinceBoot: now())
                for event in edges { emit(interpreter.edge(event.edge, at: event.timestamp, receivedAt: received)) }
                if let deadline = interpreter.nextDeadline, deadline <= received {
                    // Debounce and long-press deadlines are answered with the real level: edges can be lost
                    // (libgpiod 1.6's 16-event FIFO overflows silently), the level cannot.
                    emit(interpreter.levelSample(isActive: try line.isActive(), at: received))
                    emit(interpreter.tick(at: received))
                }
            }
        } catch {
            failureBox.withLock { $0 = error }
        }
    }
}

/// Carries a non-Sendable line into the watcher's thread, which becomes its only user.
private final class LineBox: @unchecked Sendable {
    let line: any GPIOInputLine
    init(_ line: sending any GPIOInputLine) { self.line = line }
}

import Foundation
