import ControlsCore
import Foundation
import Glibc
import IntercomPlatform
import Synchronization

/// A bank of GPIO lines in memory: the buttons and LEDs of `intercomd demo` (where the keyboard stands in
/// for the buttons) and of tests of everything above libgpiod. A press arrives as a rising and, after the
/// hold, a falling edge stamped with the monotonic clock, so the same `ButtonWatcher` and interpreter
/// (debounce, long press) run as on a board. Output levels are kept and reported to `onOutputChange`.
/// Lines are named like the configuration names them (`ACCEPT`, or `chip:offset` for offsets).
public final class SimulatedGPIOBackend: GPIOBackend, Sendable {
    private let inputs = Mutex<[String: SimulatedInputLine]>([:])
    private let outputs = Mutex<[String: SimulatedOutputLine]>([:])
    private let onOutputChange: @Sendable (_ line: String, _ active: Bool) -> Void

    public init(onOutputChange: @escaping @Sendable (_ line: String, _ active: Bool) -> Void = { _, _ in }) {
        self.onOutputChange = onOutputChange
    }

    /// The name a line is simulated under: its name, or `chip:offset`.
    public static func name(_ request: GPIOLineRequest) -> String {
        switch request.address {
        case .named(let name): name
        case .offset(let chip, let offset): "\(chip):\(offset)"
        }
    }

    public func requestInput(_ request: GPIOLineRequest) throws(GPIOError) -> any GPIOInputLine {
        let name = Self.name(request)
        return try inputs.withLock { lines throws(GPIOError) in
            guard lines[name] == nil else { throw Self.busy(name) }
            let line = SimulatedInputLine()
            lines[name] = line
            return line
        }
    }

    public func requestOutput(_ request: GPIOLineRequest, initiallyActive: Bool) throws(GPIOError) -> any GPIOOutputLine {
        let name = Self.name(request)
        let report = onOutputChange
        return try outputs.withLock { lines throws(GPIOError) in
            guard lines[name] == nil else { throw Self.busy(name) }
            let line = SimulatedOutputLine(active: initiallyActive) { report(name, $0) }
            lines[name] = line
            return line
        }
    }

    /// The input lines that were requested, by name.
    public var inputNames: [String] { inputs.withLock { $0.keys.sorted() } }

    /// Presses the button on line `name` for `hold`. False when no such input line was requested.
    @discardableResult
    public func press(_ name: String, holding hold: Duration = .milliseconds(120)) async -> Bool {
        guard let line = inputs.withLock({ $0[name] }) else { return false }
        // The hold is timed on a thread of its own: a Task.sleep on the cooperative pool ends late when the
        // pool is busy (seconds, on two loaded cores), which turned a 60 ms press into a long press.
        let pressedAt = MonotonicClock.now()
        line.push(.rising)
        await withCheckedContinuation { (released: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                MonotonicClock.sleep(until: pressedAt + hold)
                line.push(.falling)
                released.resume()
            }
            thread.name = "gpio-sim-press"
            thread.start()
        }
        return true
    }

    /// True once something (a `ButtonWatcher`) has read line `name`'s level: presses from then on are seen as
    /// presses, not as a hold that was already in progress.
    public func isWatched(_ name: String) -> Bool {
        inputs.withLock { $0[name] }?.hasBeenRead ?? false
    }

    /// The level last written to output line `name`; nil when it was never requested.
    public func level(_ name: String) -> Bool? {
        outputs.withLock { $0[name] }?.isActive
    }

    private static func busy(_ name: String) -> GPIOError {
        GPIOError(kind: .busy, line: name, cause: SystemCallError(call: "simulated line request", errno: EBUSY, path: name))
    }
}

/// An input line whose edges come from `push`; `waitForEdges` sleeps on a semaphore, not in a poll loop.
final class SimulatedInputLine: GPIOInputLine, Sendable {
    private let state = Mutex<(queue: [GPIOEdgeEvent], active: Bool)>(([], false))
    private let arrived = DispatchSemaphore(value: 0)
    private let read = Atomic<Bool>(false)

    func push(_ edge: ButtonEdge) {
        state.withLock {
            $0.queue.append(GPIOEdgeEvent(edge: edge, timestamp: MonotonicInstant(sinceBoot: MonotonicClock.now())))
            $0.active = edge == .rising
        }
        arrived.signal()
    }

    func waitForEdges(timeout: Duration) throws(GPIOError) -> [GPIOEdgeEvent] {
        let (seconds, attoseconds) = timeout.components
        _ = arrived.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
        return state.withLock { state in
            defer { state.queue.removeAll() }
            return state.queue
        }
    }

    func isActive() throws(GPIOError) -> Bool {
        read.store(true, ordering: .releasing)
        return state.withLock { $0.active }
    }

    var hasBeenRead: Bool { read.load(ordering: .acquiring) }

    /// Nothing to give back: the line lives as long as the backend.
    func release() {}
}

/// An output line that keeps its level and reports each change.
final class SimulatedOutputLine: GPIOOutputLine, Sendable {
    private let active: Mutex<Bool>
    private let changed: @Sendable (Bool) -> Void

    init(active: Bool, changed: @escaping @Sendable (Bool) -> Void) {
        self.active = Mutex(active)
        self.changed = changed
    }

    var isActive: Bool { active.withLock { $0 } }

    func setActive(_ value: Bool) throws(GPIOError) {
        let previous = active.withLock { level in
            defer { level = value }
            return level
        }
        if previous != value { changed(value) }
    }

    func release() { try? setActive(false) }
}
