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
///
/// Lines that cannot be claimed at start (another program holds one) do not stop the device: the machine
/// hears `controlsUnavailable` (it shows `fault` and answers without the accept button), and the claim is
/// retried in the background (`LineClaimRetry`) until it succeeds, when the machine hears
/// `controlsAvailable` and the LEDs show its pattern. Stuck and chattering buttons are logged, shown on
/// `/health` and ignored (`ButtonCondition`).
public struct ControlsService: Service {
    enum Lines: Sendable {
        /// Claimed by the caller (tests that check the lines themselves).
        case claimed(ControlOutputs, [(GPIOSettings.ButtonRole, ButtonWatcher)])
        /// Claimed here, retried until they are.
        case toClaim(GPIOSettings, any GPIOBackend, LineClaimRetry)
    }

    let lines: Lines
    let coordinator: CallCoordinator
    let indicators: GPIOIndicators?
    let status: AgentStatusBoard?
    let logger: Logger

    /// Claims the lines of `gpio` from `backend`, retrying with `retry`'s backoff while they are busy; the
    /// claimed outputs are attached to `indicators` (the coordinator's).
    public init(gpio: GPIOSettings, backend: any GPIOBackend, coordinator: CallCoordinator, indicators: GPIOIndicators,
                status: AgentStatusBoard?, retry: LineClaimRetry = LineClaimRetry(), logger: Logger) {
        lines = .toClaim(gpio, backend, retry)
        self.coordinator = coordinator
        self.indicators = indicators
        self.status = status
        self.logger = logger
    }

    /// Lines the caller already claimed.
    public init(coordinator: CallCoordinator, outputs: ControlOutputs, buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)],
                status: AgentStatusBoard? = nil, logger: Logger) {
        lines = .claimed(outputs, buttons)
        self.coordinator = coordinator
        indicators = nil
        self.status = status
        self.logger = logger
    }

    /// What a person's gesture on a button means to the call machine; releases mean nothing.
    public static func event(_ role: GPIOSettings.ButtonRole, _ gesture: ButtonGesture) -> ButtonEvent? {
        switch (role, gesture) {
        case (.accept, .press): .acceptPress
        case (.accept, .longPress): .acceptLongPress
        case (.hangup, .press): .hangupPress
        case (.call, .press): .callPress
        case (.reply, .press): .replyPress
        // Only reported where `reply_on_double_press` is set (`GPIOLineRequests.timing`).
        case (_, .doublePress): .replyPress
        default: nil
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            switch lines {
            case .claimed(let outputs, let buttons):
                await status?.setControlsClaimed(true)
                await watch(buttons, outputs: outputs)
                Self.release(outputs, buttons)
            case .toClaim(let gpio, let backend, let retry):
                guard let claimed = await claim(gpio, backend: backend, retry: retry) else { return }
                await watch(claimed.buttons, outputs: claimed.outputs)
                _ = indicators?.detach()
                Self.release(claimed.outputs, claimed.buttons)
            }
        }
    }

    /// Feeds every button's gestures to the coordinator until shutdown. Returning early would end the
    /// whole agent (a service group stops when one service returns), so with no buttons left (none
    /// configured, or every line failed) the LEDs keep running until shutdown.
    private func watch(_ buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)], outputs: ControlOutputs) async {
        await watchGestures(buttons, outputs: outputs)
        if !Task.isCancelled {
            try? await gracefulShutdown()
        }
    }

    private static func release(_ outputs: ControlOutputs, _ buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)]) {
        for (_, watcher) in buttons { watcher.stop() }
        outputs.stop()
    }
}
