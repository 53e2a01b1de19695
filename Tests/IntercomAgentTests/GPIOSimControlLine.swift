extension GPIOSimTests {
    /// The controls on a sim chip a suite makes for itself, at offsets 0…5. Each suite names them with a
    /// prefix of its own, unique in the guest, so the agent's lookup by name cannot land on another chip.
    enum ControlLine: Int, CaseIterable, Sendable {
        case accept, hangup, call, statusLED, ringingLED, door

        static let outputs: [ControlLine] = [.statusLED, .ringingLED, .door]

        func name(prefix: String) -> String {
            let suffix = switch self {
            case .accept: "ACCEPT"
            case .hangup: "HANGUP"
            case .call: "CALL"
            case .statusLED: "LED_STATUS"
            case .ringingLED: "LED_RINGING"
            case .door: "DOOR"
            }
            return "\(prefix)_\(suffix)"
        }

        /// The `[gpio.*]` sections that wire every control to its line; `doorPulse` sets `gpio.door.pulse`.
        static func gpioSections(prefix: String, doorPulse: String? = nil) -> String {
            """
            [gpio.buttons.accept]
            line = "\(accept.name(prefix: prefix))"
            [gpio.buttons.hangup]
            line = "\(hangup.name(prefix: prefix))"
            [gpio.buttons.call]
            line = "\(call.name(prefix: prefix))"
            [gpio.leds.status]
            line = "\(statusLED.name(prefix: prefix))"
            [gpio.leds.ringing]
            line = "\(ringingLED.name(prefix: prefix))"
            [gpio.door]
            line = "\(door.name(prefix: prefix))"
            \(doorPulse.map { "pulse = \"\($0)\"" } ?? "")

            """
        }
    }
}
