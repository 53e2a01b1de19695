import ControlsCore
import Foundation
import GPIO
import IntercomPlatform
import Synchronization

/// An input line fed by the test: edges are queued with kernel-like timestamps and the level follows them.
final class FakeInputLine: GPIOInputLine, @unchecked Sendable {
    private let state = Mutex<(queue: [GPIOEdgeEvent], active: Bool, released: Bool, failWith: GPIOError?, sampled: Bool)>(
        ([], false, false, nil, false))

    func push(_ edge: ButtonEdge, at instant: Duration) {
        state.withLock {
            $0.queue.append(GPIOEdgeEvent(edge: edge, timestamp: MonotonicInstant(sinceBoot: instant)))
            $0.active = edge == .rising
        }
    }

    func fail(with error: GPIOError) { state.withLock { $0.failWith = error } }

    var isReleased: Bool { state.withLock { $0.released } }

    /// True once the watcher has read the starting level (so later edges are not taken as a hold in progress).
    var wasSampled: Bool { state.withLock { $0.sampled } }

    func waitForEdges(timeout: Duration) throws(GPIOError) -> [GPIOEdgeEvent] {
        let deadline = MonotonicClock.now() + timeout
        while true {
            let (events, failure) = state.withLock { state -> ([GPIOEdgeEvent], GPIOError?) in
                defer { state.queue.removeAll() }
                return (state.queue, state.failWith)
            }
            if let failure { throw failure }
            if !events.isEmpty || MonotonicClock.now() >= deadline { return events }
            MonotonicClock.sleep(for: .milliseconds(1))
        }
    }

    func isActive() throws(GPIOError) -> Bool {
        state.withLock {
            $0.sampled = true
            return $0.active
        }
    }

    func release() { state.withLock { $0.released = true } }
}

/// An output line that records every level written, with the time it was written.
final class RecordingOutputLine: GPIOOutputLine, @unchecked Sendable {
    private let state = Mutex<(writes: [(at: Duration, active: Bool)], released: Bool)>(([], false))

    var writes: [(at: Duration, active: Bool)] { state.withLock { $0.writes } }
    var isReleased: Bool { state.withLock { $0.released } }
    var lastLevel: Bool? { writes.last?.active }

    func setActive(_ active: Bool) throws(GPIOError) {
        state.withLock { $0.writes.append((MonotonicClock.now(), active)) }
    }

    func release() { state.withLock { $0.released = true } }
}

/// Waits (on a test thread) until `condition` holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(2), _ condition: () -> Bool) -> Bool {
    let deadline = MonotonicClock.now() + timeout
    while MonotonicClock.now() < deadline {
        if condition() { return true }
        MonotonicClock.sleep(for: .milliseconds(5))
    }
    return condition()
}
