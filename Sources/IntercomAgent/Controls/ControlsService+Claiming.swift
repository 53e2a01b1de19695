import ControlsCore
import GPIO
import IntercomConfig

extension ControlsService {
    /// Claims every line, retrying until it works or the service is cancelled (nil).
    func claim(_ gpio: GPIOSettings, backend: any GPIOBackend, retry: LineClaimRetry) async
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
}
