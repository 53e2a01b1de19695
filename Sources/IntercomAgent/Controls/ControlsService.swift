import CallCore
import ControlsCore
import GPIO
import IntercomConfig
import Logging
import ServiceLifecycle

/// The physical controls (SYSTEM.md §7): button gestures to the call coordinator — accept answers,
/// a long accept toggles do-not-disturb, hangup declines or ends, call calls the configured target — and
/// the coordinator's LED patterns and door pulses to the lines. On shutdown every line is released with
/// the LEDs off and the relay open.
public struct ControlsService: Service {
    let coordinator: CallCoordinator
    let outputs: ControlOutputs
    let buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)]
    let logger: Logger

    public init(coordinator: CallCoordinator, outputs: ControlOutputs, buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)],
                logger: Logger) {
        self.coordinator = coordinator
        self.outputs = outputs
        self.buttons = buttons
        self.logger = logger
    }

    /// What a gesture on a button means to the call machine; releases and double presses mean nothing.
    public static func event(_ role: GPIOSettings.ButtonRole, _ gesture: ButtonGesture) -> ButtonEvent? {
        switch (role, gesture) {
        case (.accept, .press): .acceptPress
        case (.accept, .longPress): .acceptLongPress
        case (.hangup, .press): .hangupPress
        case (.call, .press): .callPress
        default: nil
        }
    }

    public func run() async throws {
        let buttons = self.buttons
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for (role, watcher) in buttons {
                    group.addTask {
                        for await report in watcher.gestures {
                            guard let event = Self.event(role, report.gesture) else { continue }
                            logger.info("button \(role.rawValue): \(report.gesture)")
                            await coordinator.button(event)
                        }
                        if let failure = watcher.failure {
                            logger.error("button \(role.rawValue) stopped", metadata: ["error": "\(failure)"])
                        }
                    }
                }
            }
        }
        for (_, watcher) in buttons { watcher.stop() }
        outputs.stop()
    }
}

/// `CallIndicators` on the GPIO output thread: LED patterns and door pulses.
public struct GPIOIndicators: CallIndicators {
    let outputs: ControlOutputs
    let logger: Logger

    public init(outputs: ControlOutputs, logger: Logger) {
        self.outputs = outputs
        self.logger = logger
    }

    public func show(_ pattern: LEDPattern) async {
        outputs.show(Self.blink(pattern))
    }

    public func pulseDoor() async {
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
