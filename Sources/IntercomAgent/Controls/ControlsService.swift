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

    /// What a person's gesture on a button means to the call machine; releases and double presses mean nothing.
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
        await cancelWhenGracefulShutdown {
            switch lines {
            case .claimed(let outputs, let buttons):
                await status?.setControlsClaimed(true)
                await watch(buttons)
                Self.release(outputs, buttons)
            case .toClaim(let gpio, let backend, let retry):
                guard let claimed = await claim(gpio, backend: backend, retry: retry) else { return }
                await watch(claimed.buttons)
                _ = indicators?.detach()
                Self.release(claimed.outputs, claimed.buttons)
            }
        }
    }

    /// Feeds every button's gestures to the coordinator until shutdown. Returning early would end the
    /// whole agent (a service group stops when one service returns), so with no buttons left (none
    /// configured, or every line failed) the LEDs keep running until shutdown.
    private func watch(_ buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)]) async {
        await watchGestures(buttons)
        if !Task.isCancelled {
            try? await gracefulShutdown()
        }
    }

    /// Claims every line, retrying until it works or the service is cancelled (nil).
    private func claim(_ gpio: GPIOSettings, backend: any GPIOBackend, retry: LineClaimRetry) async
        -> (outputs: ControlOutputs, buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)])?
    {
        var retry = retry
        while !Task.isCancelled {
            let claimed: (outputs: ControlOutputs, buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)])
            do {
                claimed = try GPIOLineRequests.claimAll(gpio, backend: backend, consumer: "intercomd")
            } catch {
                let (delay, startsStreak) = retry.failed()
                if startsStreak {
                    logger.error("the GPIO lines could not be claimed; calls are answered without the buttons, and the lines are retried in the background",
                                 metadata: ["error": "\(error)"])
                    await status?.setControlsClaimed(false)
                    await coordinator.button(.controlsUnavailable)
                }
                try? await Task.sleep(for: delay)
                continue
            }
            let failures = retry.claimed()
            indicators?.attach(claimed.outputs)
            await status?.setControlsClaimed(true)
            if failures > 0 {
                logger.notice("the GPIO lines are claimed after \(failures) failed attempt\(failures == 1 ? "" : "s"); buttons and LEDs work")
                await coordinator.button(.controlsAvailable)
            }
            return claimed
        }
        return nil
    }

    /// Feeds every button's gestures to the coordinator until the watchers end (cancelled, or a line failed).
    private func watchGestures(_ buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)]) async {
        await withTaskGroup(of: Void.self) { group in
            for (role, watcher) in buttons {
                group.addTask {
                    var condition = ButtonCondition()
                    for await report in watcher.gestures {
                        let before = condition
                        let events = condition.events(for: report.gesture, on: role)
                        await self.reportChanges(of: role, from: before, to: condition)
                        for event in events {
                            if Self.event(role, report.gesture) != nil { logger.info("button \(role.rawValue): \(report.gesture)") }
                            await coordinator.button(event)
                        }
                    }
                    if let failure = watcher.failure {
                        logger.error("button \(role.rawValue) stopped", metadata: ["error": "\(failure)"])
                    }
                }
            }
        }
    }

    /// Logs and shows on `/health` a button that became stuck or chattering, or works again.
    private func reportChanges(of role: GPIOSettings.ButtonRole, from before: ButtonCondition, to after: ButtonCondition) async {
        if after.isStuck != before.isStuck {
            if after.isStuck {
                logger.warning("button \(role.rawValue) is stuck: held longer than gpio.stuck_after; ignored until released")
            } else {
                logger.notice("button \(role.rawValue) was released after being stuck")
            }
            await status?.setButtonStuck(role.rawValue, after.isStuck)
        }
        if after.isChattering != before.isChattering {
            if after.isChattering {
                logger.warning("button \(role.rawValue) is chattering (presses faster than a person's); ignored until quiet")
            } else {
                logger.notice("button \(role.rawValue) stopped chattering")
            }
            await status?.setButtonChattering(role.rawValue, after.isChattering)
        }
    }

    private static func release(_ outputs: ControlOutputs, _ buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)]) {
        for (_, watcher) in buttons { watcher.stop() }
        outputs.stop()
    }
}
