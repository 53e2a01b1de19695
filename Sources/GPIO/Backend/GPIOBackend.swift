import ControlsCore

/// One edge as the kernel reported it, already inverted for active-low lines (libgpiod applies the flag).
public struct GPIOEdgeEvent: Sendable, Equatable {
    public var edge: ButtonEdge
    /// Kernel timestamp (CLOCK_MONOTONIC on Linux ≥ 5.7).
    public var timestamp: MonotonicInstant

    public init(edge: ButtonEdge, timestamp: MonotonicInstant) {
        self.edge = edge
        self.timestamp = timestamp
    }
}

/// A claimed input line. Its methods block and belong on a dedicated thread, never on the cooperative pool.
public protocol GPIOInputLine: AnyObject {
    /// Waits up to `timeout` for edges; returns those that arrived (empty on timeout).
    func waitForEdges(timeout: Duration) throws(GPIOError) -> [GPIOEdgeEvent]
    /// The logical level now (true = active, after active-low).
    func isActive() throws(GPIOError) -> Bool
    /// Releases the line; further calls fail. Idempotent.
    func release()
}

/// A claimed output line (LED, relay driver).
public protocol GPIOOutputLine: AnyObject {
    func setActive(_ active: Bool) throws(GPIOError)
    func release()
}

/// The GPIO implementation: libgpiod 1.6 today (Debian 12, Raspberry Pi OS bookworm); a libgpiod 2.x backend
/// (Debian 13) implements the same protocol without touching the rest.
public protocol GPIOBackend: Sendable {
    func requestInput(_ request: GPIOLineRequest) throws(GPIOError) -> any GPIOInputLine
    func requestOutput(_ request: GPIOLineRequest, initiallyActive: Bool) throws(GPIOError) -> any GPIOOutputLine
}
