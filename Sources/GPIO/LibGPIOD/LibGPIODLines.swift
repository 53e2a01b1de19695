import CGPIOD
import ControlsCore
import Glibc

/// A button line: both edges requested; `gpiod_line_event_wait` + `gpiod_line_event_read_multiple`.
final class LibGPIODInput: GPIOInputLine {
    private let line: LibGPIODLine
    /// libgpiod 1.6 keeps a 16-event kernel FIFO; reading 16 at a time drains it in one call.
    private static let batch = 16

    init(line: LibGPIODLine) {
        self.line = line
    }

    deinit { line.closeChip() }

    func waitForEdges(timeout: Duration) throws(GPIOError) -> [GPIOEdgeEvent] {
        guard line.isOpen else { throw GPIOError.from(call: "gpiod_line_event_wait", line: line.name, errno: EBADF) }
        let (seconds, attoseconds) = max(timeout, .zero).components
        var wait = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        let ready = gpiod_line_event_wait(line.handle, &wait)
        if ready < 0 {
            if errno == EINTR { return [] }
            throw GPIOError.from(call: "gpiod_line_event_wait", line: line.name, errno: errno)
        }
        if ready == 0 { return [] }
        var events = [gpiod_line_event](repeating: gpiod_line_event(), count: Self.batch)
        let count = events.withUnsafeMutableBufferPointer {
            gpiod_line_event_read_multiple(line.handle, $0.baseAddress, UInt32(Self.batch))
        }
        if count < 0 { throw GPIOError.from(call: "gpiod_line_event_read_multiple", line: line.name, errno: errno) }
        return events.prefix(Int(count)).map { event in
            GPIOEdgeEvent(
                edge: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE) ? .rising : .falling,
                timestamp: MonotonicInstant(sinceBoot: .seconds(event.ts.tv_sec) + .nanoseconds(event.ts.tv_nsec)))
        }
    }

    func isActive() throws(GPIOError) -> Bool {
        let value = gpiod_line_get_value(line.handle)
        if value < 0 { throw GPIOError.from(call: "gpiod_line_get_value", line: line.name, errno: errno) }
        return value == 1
    }

    func release() { line.closeChip() }
}

/// An LED or relay line requested as an output.
final class LibGPIODOutput: GPIOOutputLine {
    private let line: LibGPIODLine

    init(line: LibGPIODLine) {
        self.line = line
    }

    deinit { line.closeChip() }

    func setActive(_ active: Bool) throws(GPIOError) {
        guard line.isOpen else { throw GPIOError.from(call: "gpiod_line_set_value", line: line.name, errno: EBADF) }
        if gpiod_line_set_value(line.handle, active ? 1 : 0) < 0 {
            throw GPIOError.from(call: "gpiod_line_set_value", line: line.name, errno: errno)
        }
    }

    /// Switches the output off, then releases it: LEDs end dark and the relay open (SIGTERM contract).
    func release() {
        if line.isOpen { _ = gpiod_line_set_value(line.handle, 0) }
        line.closeChip()
    }
}
