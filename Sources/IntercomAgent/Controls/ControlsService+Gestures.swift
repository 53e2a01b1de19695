import CallCore
import ControlsCore
import GPIO
import IntercomConfig
import Synchronization

extension ControlsService {
    /// Feeds every button's gestures to the coordinator until the watchers end (cancelled, or a line failed).
    /// While any button is stuck or chatters, the ringing LED says so (`IndicatorPanel.flagButtonFault`).
    func watchGestures(_ buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)], outputs: ControlOutputs) async {
        let faultyButtons = FaultyButtons()
        await withTaskGroup(of: Void.self) { group in
            for (role, watcher) in buttons {
                group.addTask {
                    var condition = ButtonCondition()
                    for await report in watcher.gestures {
                        let before = condition
                        let events = condition.events(for: report.gesture, on: role)
                        await self.reportChanges(of: role, from: before, to: condition)
                        if condition.works != before.works {
                            outputs.flagButtonFault(faultyButtons.mark(role, works: condition.works))
                        }
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
    func reportChanges(of role: GPIOSettings.ButtonRole, from before: ButtonCondition, to after: ButtonCondition) async {
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
}

/// The buttons that are stuck or chatter, shared by the buttons' tasks.
private final class FaultyButtons: Sendable {
    private let roles = Mutex<Set<GPIOSettings.ButtonRole>>([])

    /// Records whether `role` works; returns whether any button is faulty now.
    func mark(_ role: GPIOSettings.ButtonRole, works: Bool) -> Bool {
        roles.withLock { roles in
            if works { roles.remove(role) } else { roles.insert(role) }
            return !roles.isEmpty
        }
    }
}
