import CallCore
import Logging
import ParseWire
import SIPTransport

/// What the agent is doing, in one place: the systemd `STATUS=` line, `/health` and `/metrics` read it.
public actor AgentStatusBoard {
    public private(set) var registered = false
    public private(set) var liveQueryUp = false
    public private(set) var callsReceived = 0
    /// The call machine's own words for what it is doing (`ringing Visitor`, `in call`…); nil when idle.
    public private(set) var callState: String?
    /// Seconds the backend's clock is ahead of the device's (negative: behind), from its `Date` headers.
    public private(set) var clockSkewSeconds: Double?
    /// Buttons held past `gpio.stuck_after`, by role name.
    public private(set) var stuckButtons: Set<String> = []
    /// Buttons whose lines chatter, by role name.
    public private(set) var chatteringButtons: Set<String> = []
    /// Whether the `[gpio]` lines are claimed; nil without `[gpio]`.
    public private(set) var controlsClaimed: Bool?
    /// The camera went away and has not come back (calls get its last picture, dimmed), or could not be
    /// opened at all (calls get the test pattern).
    public private(set) var camera = CameraCondition.working
    /// The device identity is only in memory: the state directory is full or read-only.
    public private(set) var stateUnsaved = false
    /// An anonymous device's state directory is in RAM (tmpfs, an overlay root): its userID changes at
    /// every boot.
    public private(set) var stateVolatile = false
    /// The SIP registration (`[sip]`); nil without it.
    public private(set) var sip: SIPRegistrationState?
    /// The device's fixed geopoint (for "nearest device called …" outgoing calls).
    public let location: GeoPoint?
    private let title: String
    private let logger: Logger?

    /// `logger`: where do-not-disturb coming and going is logged (the call machine says so only in its
    /// status line, which arrives here).
    public init(title: String, location: GeoPoint? = nil, logger: Logger? = nil) {
        self.title = title
        self.location = location
        self.logger = logger
    }

    public func setCallState(_ text: String) {
        let wasDoNotDisturb = callState?.hasSuffix(CallStateMachine.doNotDisturbNote) ?? false
        let isDoNotDisturb = text.hasSuffix(CallStateMachine.doNotDisturbNote)
        callState = text
        if isDoNotDisturb != wasDoNotDisturb {
            // Off without an accept long press logged just before: it reached call.do_not_disturb_limit.
            logger?.notice(isDoNotDisturb ? "do-not-disturb is on: calls are refused" : "do-not-disturb is off")
        }
    }

    public func setButtonStuck(_ button: String, _ stuck: Bool) {
        if stuck { stuckButtons.insert(button) } else { stuckButtons.remove(button) }
    }

    public func setButtonChattering(_ button: String, _ chattering: Bool) {
        if chattering { chatteringButtons.insert(button) } else { chatteringButtons.remove(button) }
    }

    public func setControlsClaimed(_ claimed: Bool) { controlsClaimed = claimed }
    public func setCamera(_ condition: CameraCondition) { camera = condition }
    public func setStateUnsaved(_ unsaved: Bool) { stateUnsaved = unsaved }
    public func setStateVolatile(_ volatile: Bool) { stateVolatile = volatile }
    public func setSIP(_ state: SIPRegistrationState) { sip = state }

    public func setRegistered(_ value: Bool) { registered = value }
    public func setLiveQueryUp(_ value: Bool) { liveQueryUp = value }
    public func countCall() { callsReceived += 1 }
    public func setClockSkew(_ seconds: Double?) { clockSkewSeconds = seconds }

    /// Beyond this the device and its backend disagree about time enough to matter to people (a ring is
    /// 60 s); calls still work, the skew is judged on the server's clock, but `/health` warns.
    public static let clockSkewWarning = 30.0

    public var snapshot: AgentStatusSnapshot {
        var snapshot = AgentStatusSnapshot(registered: registered, liveQueryUp: liveQueryUp, callsReceived: callsReceived,
                                           callState: callState.flatMap { $0 == "idle" ? nil : $0 } ?? "idle", line: line)
        snapshot.clockSkewSeconds = clockSkewSeconds
        snapshot.stuckButtons = stuckButtons.sorted()
        snapshot.chatteringButtons = chatteringButtons.sorted()
        snapshot.controlsClaimed = controlsClaimed
        snapshot.camera = camera
        snapshot.stateUnsaved = stateUnsaved
        snapshot.stateVolatile = stateVolatile
        snapshot.sip = sip
        return snapshot
    }

    /// e.g. `idle, Gate 3 (LiveQuery up, 2 calls)`, `in call, Gate 3 (LiveQuery up, 3 calls, camera lost)`
    /// or `offline, Gate 3 (backend unreachable)`.
    public var line: String {
        let camera = switch camera {
        case .working: ""
        case .lost: ", camera lost"
        case .failed: ", camera failed: test pattern"
        }
        let sip = sip.map { ", SIP \($0.word)" } ?? ""
        guard registered else { return "offline, \(title) (backend unreachable\(camera)\(sip))" }
        let intake = liveQueryUp ? "LiveQuery up" : "polling for calls"
        let doing = callState.flatMap { $0 == "idle" ? nil : $0 } ?? "idle"
        return "\(doing), \(title) (\(intake), \(callsReceived) call\(callsReceived == 1 ? "" : "s")\(camera)\(sip))"
    }
}

/// The board at one instant, for readers outside the actor.
public struct AgentStatusSnapshot: Sendable, Equatable {
    public var registered: Bool
    public var liveQueryUp: Bool
    public var callsReceived: Int
    public var callState: String
    public var line: String
    public var clockSkewSeconds: Double?
    public var stuckButtons: [String] = []
    public var chatteringButtons: [String] = []
    public var controlsClaimed: Bool?
    public var camera = CameraCondition.working
    public var stateUnsaved = false
    public var stateVolatile = false
    /// The SIP registration; nil without `[sip]`.
    public var sip: SIPRegistrationState?

    /// What `/health` warns about (the device still answers calls): `clock_skew` beyond `clockSkewWarning`,
    /// `gpio_unclaimed` while the `[gpio]` lines are retried, `button_stuck` and `button_chattering` while
    /// a button is ignored (docs/deployment.md, "Unattended operation: buttons and GPIO"), `camera_lost`
    /// while the camera is unplugged (calls get its last picture, dimmed), `camera_failed` while the configured
    /// camera cannot be opened (calls get the test pattern), `state_unsaved` while the device
    /// identity cannot be written (a full or read-only state directory; retried at each heartbeat),
    /// `state_volatile` when an anonymous device keeps its identity in RAM (a new userID at every boot),
    /// `sip_unregistered` while `[sip]` is configured and the device is not registered (docs/sip.md).
    public var warnings: [String] {
        var warnings: [String] = []
        if let clockSkewSeconds, abs(clockSkewSeconds) > AgentStatusBoard.clockSkewWarning { warnings.append("clock_skew") }
        if controlsClaimed == false { warnings.append("gpio_unclaimed") }
        if !stuckButtons.isEmpty { warnings.append("button_stuck") }
        if !chatteringButtons.isEmpty { warnings.append("button_chattering") }
        if camera == .lost { warnings.append("camera_lost") }
        if camera == .failed { warnings.append("camera_failed") }
        if stateUnsaved { warnings.append("state_unsaved") }
        if stateVolatile { warnings.append("state_volatile") }
        if let sip, !sip.isRegistered { warnings.append("sip_unregistered") }
        return warnings
    }

    public init(registered: Bool, liveQueryUp: Bool, callsReceived: Int, callState: String, line: String) {
        self.registered = registered
        self.liveQueryUp = liveQueryUp
        self.callsReceived = callsReceived
        self.callState = callState
        self.line = line
    }
}
