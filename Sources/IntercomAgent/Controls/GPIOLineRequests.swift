import ControlsCore
import GPIO
import IntercomConfig

/// Line requests for the `[gpio]` wiring: by name on any chip, or by offset on `gpio.chip`.
public enum GPIOLineRequests {
    public static func request(_ line: GPIOSettings.Line, chip: String?, bias: GPIOLineRequest.Bias, activeLow: Bool,
                               consumer: String) -> GPIOLineRequest? {
        switch line {
        case .named(let name):
            return GPIOLineRequest(address: .named(name), bias: bias, activeLow: activeLow, consumer: consumer)
        case .offset(let offset):
            // Validation guarantees a chip for offsets.
            guard let chip else { return nil }
            return GPIOLineRequest(address: .offset(chip: chip, offset), bias: bias, activeLow: activeLow, consumer: consumer)
        }
    }

    public static func bias(_ bias: GPIOSettings.Bias) -> GPIOLineRequest.Bias {
        switch bias {
        case .pullUp: .pullUp
        case .pullDown: .pullDown
        case .disabled: .disabled
        case .asIs: .asIs
        }
    }

    /// The LEDs and the door relay of `gpio`, driven by one output thread.
    public static func outputs(_ gpio: GPIOSettings, backend: any GPIOBackend, consumer: String) throws(GPIOError)
        -> ControlOutputs
    {
        func output(_ settings: GPIOSettings.Output?) throws(GPIOError) -> (any GPIOOutputLine)? {
            guard let settings,
                  let request = request(settings.line, chip: gpio.chip, bias: .asIs, activeLow: settings.activeLow,
                                        consumer: consumer)
            else { return nil }
            return try backend.requestOutput(request, initiallyActive: false)
        }
        return ControlOutputs(
            status: try output(gpio.leds[.status]), ringing: try output(gpio.leds[.ringing]),
            door: try output(gpio.door?.output),
            doorTiming: (try? DoorRelayTiming(pulseLength: gpio.door?.pulse ?? .seconds(3))) ?? .standard)
    }

    /// How a button of `role` is read: long press on `accept` only (do-not-disturb), and on every button the
    /// guards of an unattended device, `gpio.stuck_after` and the standard chatter limit.
    public static func timing(_ button: GPIOSettings.Button, role: GPIOSettings.ButtonRole, stuckAfter: Duration)
        -> ButtonTiming
    {
        (try? ButtonTiming(debounce: button.debounce, reportsLongPress: role == .accept,
                           longPressThreshold: button.longPress, reportsDoublePress: button.repliesOnDoublePress,
                           stuckThreshold: stuckAfter,
                           chatterLimit: .standard)) ?? .plain
    }

    /// Every line of `gpio`: the outputs, then the buttons. If any cannot be claimed, those already claimed
    /// are released (asynchronously, within their threads' poll) before it throws.
    public static func claimAll(_ gpio: GPIOSettings, backend: any GPIOBackend, consumer: String) throws(GPIOError)
        -> (outputs: ControlOutputs, buttons: [(GPIOSettings.ButtonRole, ButtonWatcher)])
    {
        let outputs = try outputs(gpio, backend: backend, consumer: consumer)
        do {
            return (outputs, try buttons(gpio, backend: backend, consumer: consumer))
        } catch {
            outputs.stop()  // the LED and relay lines are released, not held by an idle output thread
            throw error
        }
    }

    /// One watcher per configured button (`timing(_:role:stuckAfter:)`). If a line cannot be claimed, the
    /// watchers already started are stopped (their lines released) before it throws.
    public static func buttons(_ gpio: GPIOSettings, backend: any GPIOBackend, consumer: String) throws(GPIOError)
        -> [(GPIOSettings.ButtonRole, ButtonWatcher)]
    {
        var watchers: [(GPIOSettings.ButtonRole, ButtonWatcher)] = []
        do throws(GPIOError) {
            for (role, button) in gpio.buttons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                guard let request = request(button.line, chip: gpio.chip, bias: bias(button.bias),
                                            activeLow: button.activeLow, consumer: consumer)
                else { continue }
                let timing = timing(button, role: role, stuckAfter: gpio.stuckAfter)
                watchers.append((role, ButtonWatcher(name: role.rawValue, line: try backend.requestInput(request), timing: timing)))
            }
        } catch {
            // A watcher's thread owns its line until stopped: dropping the watcher would hold the line for good.
            for (_, watcher) in watchers { watcher.stop() }
            throw error
        }
        return watchers
    }
}
