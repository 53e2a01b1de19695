extension CallStateMachine {
    /// The status LED pattern for the current state (SYSTEM.md §7). `ending` already shows the resting
    /// pattern it is about to enter: for the user the call is over.
    public var ledPattern: LEDPattern {
        switch state {
        case .offline: .offline
        case .idle: doNotDisturb ? .off : .idle
        case .fault: .fault
        case .ringing, .dialing, .ringingRemote: .ringing
        case .connecting: .connecting
        case .inCall: .inCall
        case .ending: restingPattern
        }
    }

    private var restingPattern: LEDPattern {
        switch restingState {
        case .offline: .offline
        case .fault: .fault
        default: doNotDisturb ? .off : .idle
        }
    }

    /// A one-line status for systemd `STATUS=`, free of control characters, ending in `doNotDisturbNote`
    /// while do-not-disturb is on (in every state: the status board logs when it comes and goes).
    public var statusText: String {
        stateText + (doNotDisturb ? Self.doNotDisturbNote : "")
    }

    /// How `statusText` says that do-not-disturb is on.
    public static let doNotDisturbNote = ", do not disturb"

    private var stateText: String {
        let backendNote = backendUp ? "" : " (backend offline)"
        switch state {
        case .offline:
            return "offline: backend unreachable"
        case .idle:
            return "idle"
        case .fault:
            let missing = faults.union(controlsUnavailable ? [Self.controlsDevice] : [])
            return "fault: missing " + missing.sorted().map(Self.printable).joined(separator: ", ")
        case .ringing(let context):
            return "ringing: call from \(Self.printable(context.remoteTitle))" + backendNote
        case .dialing(let context):
            return "calling \(Self.printable(context.remoteTitle))" + backendNote
        case .ringingRemote(let context):
            return "ringing at \(Self.printable(context.remoteTitle))" + backendNote
        case .connecting(let context):
            return "connecting with \(Self.printable(context.remoteTitle))" + backendNote
        case .inCall(let context):
            let viewers = context.viewers.isEmpty ? "" : ", \(context.viewers.count) viewer(s)"
            return "in call with \(Self.printable(context.remoteTitle))" + viewers + backendNote
        case .ending(let context):
            return "ending call with \(Self.printable(context.remoteTitle))" + backendNote
        }
    }

    /// What `statusText` calls the button and LED lines while they are not claimed.
    public static let controlsDevice = "gpio"

    /// Emits the LED pattern and status when they changed since last emitted.
    mutating func syncIndicators(into actions: inout [CallAction]) {
        let pattern = ledPattern
        if pattern != shownLED {
            actions.append(.setLEDPattern(pattern))
            shownLED = pattern
        }
        let status = statusText
        if status != reportedStatus {
            actions.append(.reportState(status))
            reportedStatus = status
        }
    }

    /// Caller-chosen text made safe for a one-line status: control characters become spaces, at most
    /// 64 characters.
    static func printable(_ text: String) -> String {
        let cleaned = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        return String(String(cleaned).prefix(64))
    }
}
