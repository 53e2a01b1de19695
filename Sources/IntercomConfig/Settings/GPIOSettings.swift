/// `[gpio]`: buttons, LEDs and the door relay (SYSTEM.md §7).
public struct GPIOSettings: Sendable, Equatable {
    public enum ButtonRole: String, Sendable, CaseIterable { case accept, hangup, call, reply }
    public enum LEDRole: String, Sendable, CaseIterable { case status, ringing }
    public enum Bias: String, Sendable, CaseIterable { case pullUp = "pull-up", pullDown = "pull-down", disabled, asIs = "as-is" }

    /// A GPIO line by name (`GPIO17`, found on any chip) or by offset on `gpio.chip`.
    public enum Line: Sendable, Hashable, CustomStringConvertible {
        case named(String)
        case offset(Int)

        public var description: String {
            switch self {
            case .named(let name): return "line \"\(name)\""
            case .offset(let offset): return "offset \(offset)"
            }
        }
    }

    public struct Button: Sendable, Equatable {
        public var line: Line
        public var bias: Bias
        public var activeLow: Bool
        public var debounce: Duration
        public var longPress: Duration
        /// A double press sends the first canned reply (`reply_on_double_press`). Costs every single press
        /// the double-press window (400 ms) of waiting for a second one.
        public var repliesOnDoublePress = false
    }

    public struct Output: Sendable, Equatable {
        public var line: Line
        public var activeLow: Bool
    }

    public struct Door: Sendable, Equatable {
        public var output: Output
        public var pulse: Duration
    }

    public var chip: String?
    /// A button held this long is reported stuck and ignored until released (`gpio.stuck_after`).
    public var stuckAfter: Duration = .seconds(30)
    public var buttons: [ButtonRole: Button] = [:]
    public var leds: [LEDRole: Output] = [:]
    public var door: Door?

    init(_ reader: ConfigReader) {
        chip = reader.text("chip", maxLength: 100)
        stuckAfter = reader.duration("stuck_after", in: .seconds(3)...(.seconds(3_600))) ?? stuckAfter
        var claimed: [Line: String] = [:]
        func claim(_ line: Line, by keyPath: String, in lineReader: ConfigReader) {
            if let owner = claimed[line] {
                lineReader.report(line.isNamed ? "line" : "offset", "\(line) is already used by \(owner)")
            } else {
                claimed[line] = keyPath
            }
        }
        if let buttonsReader = reader.table("buttons") {
            for role in ButtonRole.allCases {
                guard let buttonReader = buttonsReader.table(role.rawValue) else { continue }
                let bias: Bias = buttonReader.choice("bias") ?? .pullUp
                let activeLow = buttonReader.bool("active_low") ?? true
                let debounce = buttonReader.duration("debounce", in: .zero...(.milliseconds(500))) ?? .milliseconds(30)
                let longPress = buttonReader.duration("long_press", in: .milliseconds(200)...(.seconds(10))) ?? .seconds(2)
                if let line = Self.line(buttonReader, chip: chip) {
                    claim(line, by: buttonReader.path, in: buttonReader)
                    buttons[role] = Button(line: line, bias: bias, activeLow: activeLow, debounce: debounce, longPress: longPress,
                                           repliesOnDoublePress: buttonReader.bool("reply_on_double_press") ?? false)
                }
                buttonReader.rejectUnknownKeys()
            }
            buttonsReader.rejectUnknownKeys()
        }
        if let ledsReader = reader.table("leds") {
            for role in LEDRole.allCases {
                guard let ledReader = ledsReader.table(role.rawValue) else { continue }
                let activeLow = ledReader.bool("active_low") ?? false
                if let line = Self.line(ledReader, chip: chip) {
                    claim(line, by: ledReader.path, in: ledReader)
                    leds[role] = Output(line: line, activeLow: activeLow)
                }
                ledReader.rejectUnknownKeys()
            }
            ledsReader.rejectUnknownKeys()
        }
        if let doorReader = reader.table("door") {
            let activeLow = doorReader.bool("active_low") ?? false
            let pulse = doorReader.duration("pulse", in: .milliseconds(100)...(.seconds(30))) ?? .seconds(3)
            if let line = Self.line(doorReader, chip: chip) {
                claim(line, by: doorReader.path, in: doorReader)
                door = Door(output: Output(line: line, activeLow: activeLow), pulse: pulse)
            }
            doorReader.rejectUnknownKeys()
        }
        reader.rejectUnknownKeys()
    }

    /// Exactly one of `line` and `offset`; an offset needs `gpio.chip` to say which chip.
    private static func line(_ reader: ConfigReader, chip: String?) -> Line? {
        let name = reader.text("line", maxLength: 64)
        let offset = reader.integer("offset", in: 0...1023)
        switch (name, offset) {
        case let (name?, nil): return .named(name)
        case let (nil, offset?):
            if chip == nil { reader.report("offset", "a line offset needs gpio.chip to name the chip") }
            return .offset(offset)
        case (_?, _?):
            reader.report(nil, "set either line or offset, not both")
            return nil
        case (nil, nil):
            if !reader.contains("line"), !reader.contains("offset") { reader.report(nil, "needs line (e.g. \"GPIO17\") or offset") }
            return nil
        }
    }
}

extension GPIOSettings.Line {
    var isNamed: Bool {
        if case .named = self { return true }
        return false
    }
}
