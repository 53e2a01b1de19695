/// `/health`: the agent's state in a few fields (the `status` line is the systemd `STATUS=` text).
public struct HealthReport: Codable, Equatable, Sendable {
    public var status: String
    public var registered: Bool
    public var liveQuery: Bool
    public var call: String
    public var callsReceived: Int
    public var line: String
    /// Seconds the backend's clock is ahead of the device's; absent before the first answer.
    public var clockSkewSeconds: Double?
    /// Problems that do not stop calls (`clock_skew`, `gpio_unclaimed`, `button_stuck`,
    /// `button_chattering`, `camera_lost`, `camera_failed`, `state_unsaved`, `state_volatile`, `sip_unregistered`); the status stays `ok`.
    public var warnings: [String]
    /// The buttons behind `button_stuck` and `button_chattering` (absent when none).
    public var stuckButtons: [String]?
    public var chatteringButtons: [String]?
    /// The SIP registration (`registered`, `registering`, `auth failed`, `unreachable`, `refused`); absent without `[sip]`.
    public var sip: String?
    /// Why it is not registered (e.g. `auth failed: wrong user or password (challenged again)`).
    public var sipDetail: String?

    public init(_ snapshot: AgentStatusSnapshot) {
        status = snapshot.registered ? "ok" : "offline"
        registered = snapshot.registered
        liveQuery = snapshot.liveQueryUp
        call = snapshot.callState
        callsReceived = snapshot.callsReceived
        line = snapshot.line
        clockSkewSeconds = snapshot.clockSkewSeconds.map { ($0 * 10).rounded() / 10 }
        warnings = snapshot.warnings
        stuckButtons = snapshot.stuckButtons.isEmpty ? nil : snapshot.stuckButtons
        chatteringButtons = snapshot.chatteringButtons.isEmpty ? nil : snapshot.chatteringButtons
        sip = snapshot.sip?.word
        sipDetail = snapshot.sip?.description
    }
}
