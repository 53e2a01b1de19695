import CallCore
import ControlsCore
import GPIO
import Logging
import Synchronization

/// `CallIndicators` on the GPIO output thread: LED patterns and door pulses. The lines may be claimed after
/// the call machine starts (another program held one at boot): the latest pattern is kept and shown as soon
/// as `attach` hands over the outputs, and a door pulse meanwhile is logged and dropped.
public final class GPIOIndicators: CallIndicators {
    private struct Shown {
        var outputs: ControlOutputs?
        var pattern: BlinkPattern = .off
    }

    private let shown = Mutex(Shown())
    let logger: Logger

    /// No lines yet: `attach` them once claimed.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Lines already claimed.
    public convenience init(outputs: ControlOutputs, logger: Logger) {
        self.init(logger: logger)
        attach(outputs)
    }

    /// The outputs were claimed: they show the latest pattern from now on.
    public func attach(_ outputs: ControlOutputs) {
        shown.withLock { shown in
            shown.outputs = outputs
            outputs.show(shown.pattern)
        }
    }

    /// Takes the outputs back (to stop them); patterns are kept for the next `attach`.
    public func detach() -> ControlOutputs? {
        shown.withLock { shown in
            defer { shown.outputs = nil }
            return shown.outputs
        }
    }

    public func show(_ pattern: LEDPattern) async {
        let blink = Self.blink(pattern)
        shown.withLock { shown in
            shown.pattern = blink
            shown.outputs?.show(blink)
        }
    }

    public func pulseDoor() async {
        guard let outputs = shown.withLock({ $0.outputs }) else {
            logger.warning("door relay: not pulsed, its GPIO line is not claimed")
            return
        }
        logger.info("door relay: \(outputs.pulseDoor())")
    }

    static func blink(_ pattern: LEDPattern) -> BlinkPattern {
        switch pattern {
        case .idle: .idle
        case .ringing: .ringing
        case .connecting: .connecting
        case .inCall: .inCall
        case .offline: .offline
        case .fault: .fault
        case .off: .off
        }
    }
}
