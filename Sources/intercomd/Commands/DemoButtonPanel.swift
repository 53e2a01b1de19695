import Foundation
import GPIO
import IntercomPlatform
import Logging

/// The demo's buttons, LEDs and door relay: simulated GPIO lines wired like a board (`[gpio]` below), with
/// keys on standard input standing in for the buttons. A key press goes through the same path as a real
/// button (edges → debounce and long-press interpreter → call machine); the door relay is logged.
struct DemoButtonPanel: Sendable {
    let backend: SimulatedGPIOBackend

    /// The `[gpio]` table of the demo's configuration: names of simulated lines.
    static let wiring = """
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

    /// What each key (then Enter) does: the line and how long it is held.
    static let keys: [String: (line: String, hold: Duration, meaning: String)] = [
        "a": ("ACCEPT", .milliseconds(120), "accept (answers a ringing call)"),
        "A": ("ACCEPT", .milliseconds(2500), "long accept (toggles do-not-disturb)"),
        "h": ("HANGUP", .milliseconds(120), "hangup (declines or ends the call)"),
        "c": ("CALL", .milliseconds(120), "call"),
        "r": ("REPLY", .milliseconds(120), "reply (sends the first canned reply into the call)"),
    ]

    static func help(callName: String?) -> String {
        let call = callName.map { "call \"\($0)\"" } ?? "call (no --call-name given: nobody to call)"
        return "Buttons: type a + Enter = accept, A = long accept (do-not-disturb), h = hangup, c = \(call), "
            + "r = reply (\"\(DemoCommand.reply)\" into the call)."
    }

    init(logger: Logger) {
        backend = SimulatedGPIOBackend { line, active in
            guard line == "DOOR" else { return }
            logger.notice("door relay \(active ? "energised: the door opens" : "released")")
        }
    }

    /// Reads keys on a thread of its own (`readLine` blocks); ends quietly at end of input.
    func readKeys() {
        let backend = self.backend
        let thread = Thread {
            while let line = readLine() {
                let key = line.trimmingCharacters(in: .whitespaces)
                guard !key.isEmpty else { continue }
                guard let action = Self.keys[key] else {
                    Terminal.out("unknown key \"\(key)\": a, A, h, c or r, then Enter")
                    continue
                }
                Terminal.out("button: \(action.meaning)")
                Task { await backend.press(action.line, holding: action.hold) }
            }
        }
        thread.name = "demo-keys"
        thread.start()
    }
}
