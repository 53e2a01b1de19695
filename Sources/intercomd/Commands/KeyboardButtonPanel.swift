import Foundation
import GPIO
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import Logging

/// Buttons typed on standard input instead of pressed on GPIO lines: simulated lines named like the `[gpio]`
/// wiring, with keys standing in for the buttons (`intercomd demo`, and `intercomd run --keys` for a bench test
/// of a device without buttons wired). A key press goes through the same path as a real button (edges →
/// debounce and long-press interpreter → call machine); the LEDs and the door relay are logged.
struct KeyboardButtonPanel: Sendable {
    let backend: SimulatedGPIOBackend
    /// What each key (then Enter) does: the simulated line, how long it is held, and what that means.
    let keys: [String: (line: String, hold: Duration, meaning: String)]

    /// The demo's `[gpio]` table: names of simulated lines.
    static let demoWiring = """
        [gpio.buttons.accept]
        line = "ACCEPT"
        [gpio.buttons.hangup]
        line = "HANGUP"
        [gpio.buttons.call]
        line = "CALL"
        [gpio.buttons.reply]
        line = "REPLY"
        [gpio.leds.status]
        line = "LED_STATUS"
        [gpio.leds.ringing]
        line = "LED_RINGING"
        [gpio.door]
        line = "DOOR"
        pulse = "1s"
        """

    /// The key of each button role, its hold, and what it does.
    private static let roles: [(key: String, role: GPIOSettings.ButtonRole, hold: Duration, meaning: String)] = [
        ("a", .accept, .milliseconds(120), "accept (answers a ringing call)"),
        ("A", .accept, .milliseconds(2500), "long accept (toggles do-not-disturb)"),
        ("h", .hangup, .milliseconds(120), "hangup (declines or ends the call)"),
        ("c", .call, .milliseconds(120), "call"),
        ("r", .reply, .milliseconds(120), "reply (sends the first canned reply into the call)"),
    ]

    static func help(callName: String?) -> String {
        let call = callName.map { "call \"\($0)\"" } ?? "call (no --call-name given: nobody to call)"
        return "Buttons: type a + Enter = accept, A = long accept (do-not-disturb), h = hangup, c = \(call), "
            + "r = reply (\"\(DemoCommand.reply)\" into the call)."
    }

    /// Keys for the buttons `gpio` wires (each simulated under the name its line request has); nil when it
    /// wires none.
    init?(gpio: GPIOSettings, logger: Logger) {
        var keys: [String: (line: String, hold: Duration, meaning: String)] = [:]
        for entry in Self.roles {
            guard let button = gpio.buttons[entry.role],
                  let request = GPIOLineRequests.request(button.line, chip: gpio.chip, bias: .asIs, activeLow: false,
                                                         consumer: "keys")
            else { continue }
            keys[entry.key] = (SimulatedGPIOBackend.name(request), entry.hold, entry.meaning)
        }
        guard !keys.isEmpty else { return nil }
        self.keys = keys
        backend = SimulatedGPIOBackend { line, active in
            logger.notice("output \(line) \(active ? "on" : "off")")
        }
    }

    /// The demo's panel (`demoWiring`): the door relay logged as a door.
    init(demoLogger logger: Logger) {
        keys = Dictionary(uniqueKeysWithValues: Self.roles.map { entry in
            (entry.key, (entry.role.rawValue.uppercased(), entry.hold, entry.meaning))
        })
        backend = SimulatedGPIOBackend { line, active in
            guard line == "DOOR" else { return }
            logger.notice("door relay \(active ? "energised: the door opens" : "released")")
        }
    }

    /// The keys this panel knows, for a prompt.
    var keyList: String { keys.keys.sorted().joined(separator: ", ") }

    /// Reads keys on a thread of its own (`readLine` blocks); ends quietly at end of input.
    func readKeys() {
        let backend = self.backend, keys = self.keys, known = keyList
        let thread = Thread {
            while let line = readLine() {
                let key = line.trimmingCharacters(in: .whitespaces)
                guard !key.isEmpty else { continue }
                guard let action = keys[key] else {
                    Terminal.out("unknown key \"\(key)\": \(known), then Enter")
                    continue
                }
                Terminal.out("button: \(action.meaning)")
                Task { await backend.press(action.line, holding: action.hold) }
            }
        }
        thread.name = "keys"
        thread.start()
    }
}
