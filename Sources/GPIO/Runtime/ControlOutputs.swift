import ControlsCore
import IntercomPlatform
import Synchronization

/// Drives the status LED, the ringing LED and the door relay from a dedicated thread: the sans-IO
/// `IndicatorPanel` and `DoorRelay` say what each line should show at any instant; this thread writes the
/// levels when they change. On `stop()` every output is switched off and released (LEDs dark, relay open).
public final class ControlOutputs: Sendable {
    private struct Plan {
        var panel: IndicatorPanel
        var relay: DoorRelay
        var stop = false
    }

    private let plan: Mutex<Plan>
    private let finished = Mutex<Bool>(false)
    private let failureBox = Mutex<GPIOError?>(nil)
    private let now: @Sendable () -> Duration
    /// Longest sleep between checks: bounds the latency of a new pattern or a stop.
    static let pollInterval: Duration = .milliseconds(20)

    /// Takes ownership of the given lines (any may be nil: a board without that LED or relay).
    public init(status: sending (any GPIOOutputLine)?, ringing: sending (any GPIOOutputLine)?,
                door: sending (any GPIOOutputLine)?, doorTiming: DoorRelayTiming,
                now: @escaping @Sendable () -> Duration = MonotonicClock.now) {
        self.now = now
        let start = MonotonicInstant(sinceBoot: now())
        plan = Mutex(Plan(panel: IndicatorPanel(showing: .off, at: start), relay: DoorRelay(timing: doorTiming)))
        let lines = OutputLines(status: status, ringing: ringing, door: door)
        NamedThread.start("gpio-outputs") { [self] in self.drive(lines) }
    }

    /// Shows a state pattern on the LEDs from now on.
    public func show(_ pattern: BlinkPattern) {
        let instant = MonotonicInstant(sinceBoot: now())
        plan.withLock { $0.panel.show(pattern, at: instant) }
    }

    /// Shows (`true`) or stops showing that a button is stuck or chatters (`IndicatorPanel.flagButtonFault`).
    public func flagButtonFault(_ flagged: Bool) {
        let instant = MonotonicInstant(sinceBoot: now())
        plan.withLock { $0.panel.flagButtonFault(flagged, at: instant) }
    }

    /// Pulses the door relay for its configured length, unless it is pulsing or resting.
    public func pulseDoor() -> DoorPulseDecision {
        let instant = MonotonicInstant(sinceBoot: now())
        return plan.withLock { $0.relay.requestPulse(at: instant) }
    }

    /// Switches everything off and releases the lines (asynchronously, within `pollInterval`).
    public func stop() {
        plan.withLock { $0.stop = true }
    }

    public var hasFinished: Bool { finished.withLock { $0 } }
    public var failure: GPIOError? { failureBox.withLock { $0 } }

    private func drive(_ lines: OutputLines) {
        defer {
            lines.releaseAll()
            finished.withLock { $0 = true }
        }
        var written: (status: Bool?, ringing: Bool?, door: Bool?) = (nil, nil, nil)
        func write(_ line: (any GPIOOutputLine)?, _ level: Bool, _ last: inout Bool?) throws(GPIOError) {
            guard let line, last != level else { return }
            try line.setActive(level)
            last = level
        }
        do throws(GPIOError) {
            while true {
                let instant = MonotonicInstant(sinceBoot: now())
                let (panel, relay, stopping) = plan.withLock { ($0.panel, $0.relay, $0.stop) }
                if stopping { return }
                let output = panel.output(at: instant)
                try write(lines.status, output.status.isOn, &written.status)
                try write(lines.ringing, output.ringing.isOn, &written.ringing)
                let wasEnergized = written.door == true
                try write(lines.door, relay.isEnergized(at: instant), &written.door)
                var relayEnd = relay.pulseEnd(after: instant)
                if lines.door != nil, written.door == true, !wasEnergized {
                    let closed = MonotonicInstant(sinceBoot: now())
                    relayEnd = plan.withLock { plan in
                        plan.relay.energized(at: closed)
                        return plan.relay.pulseEnd(after: closed)
                    }
                }
                var wake = instant + Self.pollInterval
                if let change = output.nextChange { wake = min(wake, change) }
                if let end = relayEnd { wake = min(wake, end) }
                MonotonicClock.sleep(until: max(wake.sinceBoot, instant.sinceBoot + .milliseconds(1)))
            }
        } catch {
            failureBox.withLock { $0 = error }
        }
    }
}

/// The output lines, owned by the outputs thread once it starts.
private final class OutputLines: @unchecked Sendable {
    let status: (any GPIOOutputLine)?
    let ringing: (any GPIOOutputLine)?
    let door: (any GPIOOutputLine)?

    init(status: sending (any GPIOOutputLine)?, ringing: sending (any GPIOOutputLine)?, door: sending (any GPIOOutputLine)?) {
        self.status = status
        self.ringing = ringing
        self.door = door
    }

    /// Off first, then released: a released line's level is undefined, so it is left inactive.
    func releaseAll() {
        for line in [status, ringing, door].compactMap({ $0 }) {
            try? line.setActive(false)
            line.release()
        }
    }
}

import Foundation
