/// What the agent is doing, in one place: the systemd `STATUS=` line and (later) metrics read it.
public actor AgentStatusBoard {
    public private(set) var registered = false
    public private(set) var liveQueryUp = false
    public private(set) var callsReceived = 0
    private let title: String

    public init(title: String) {
        self.title = title
    }

    public func setRegistered(_ value: Bool) { registered = value }
    public func setLiveQueryUp(_ value: Bool) { liveQueryUp = value }
    public func countCall() { callsReceived += 1 }

    /// e.g. `idle, Gate 3 (LiveQuery up, 2 calls)` or `offline, Gate 3 (backend unreachable)`.
    public var line: String {
        guard registered else { return "offline, \(title) (backend unreachable)" }
        let intake = liveQueryUp ? "LiveQuery up" : "polling for calls"
        return "idle, \(title) (\(intake), \(callsReceived) call\(callsReceived == 1 ? "" : "s"))"
    }
}
