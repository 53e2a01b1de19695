import ParseWire

/// What the agent is doing, in one place: the systemd `STATUS=` line, `/health` and `/metrics` read it.
public actor AgentStatusBoard {
    public private(set) var registered = false
    public private(set) var liveQueryUp = false
    public private(set) var callsReceived = 0
    /// The call machine's own words for what it is doing (`ringing Visitor`, `in call`…); nil when idle.
    public private(set) var callState: String?
    /// Seconds the backend's clock is ahead of the device's (negative: behind), from its `Date` headers.
    public private(set) var clockSkewSeconds: Double?
    /// The device's fixed geopoint (for "nearest device called …" outgoing calls).
    public let location: GeoPoint?
    private let title: String

    public init(title: String, location: GeoPoint? = nil) {
        self.title = title
        self.location = location
    }

    public func setCallState(_ text: String) { callState = text }

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
        return snapshot
    }

    /// e.g. `idle, Gate 3 (LiveQuery up, 2 calls)` or `offline, Gate 3 (backend unreachable)`.
    public var line: String {
        guard registered else { return "offline, \(title) (backend unreachable)" }
        let intake = liveQueryUp ? "LiveQuery up" : "polling for calls"
        let doing = callState.flatMap { $0 == "idle" ? nil : $0 } ?? "idle"
        return "\(doing), \(title) (\(intake), \(callsReceived) call\(callsReceived == 1 ? "" : "s"))"
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

    /// What `/health` warns about (the device still works): `clock_skew` beyond `clockSkewWarning`.
    public var warnings: [String] {
        guard let clockSkewSeconds, abs(clockSkewSeconds) > AgentStatusBoard.clockSkewWarning else { return [] }
        return ["clock_skew"]
    }

    public init(registered: Bool, liveQueryUp: Bool, callsReceived: Int, callState: String, line: String) {
        self.registered = registered
        self.liveQueryUp = liveQueryUp
        self.callsReceived = callsReceived
        self.callState = callState
        self.line = line
    }
}
