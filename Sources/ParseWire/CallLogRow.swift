/// A `CallLog` row (issue #19, the visitor log): what the device writes when a call ends. Times are the
/// device's wall clock; `snapshot` is the picture taken as the call rang, if one was uploaded.
public struct CallLogRow: Sendable, Hashable, Codable {
    public static let className = "CallLog"

    /// The device's `_User.objectId`.
    public var userID: String
    public var callerID: String
    public var callerTitle: String
    /// `incoming` or `outgoing`.
    public var direction: String
    /// How the call travelled: `webrtc` today (kept general for other routes).
    public var route: String
    /// `missed`, `answered`, `declined`, `busy` or `failed` (`CallLogOutcome`).
    public var outcome: String
    public var startedAt: ParseDate
    public var answeredAt: ParseDate?
    public var endedAt: ParseDate
    public var snapshot: ParseFile?
    /// How long the caller spoke, from the audio levels its packets carried (RFC 6464); absent when the call
    /// carried none (never answered, or a peer that sends no levels).
    public var callerSpokeSeconds: Double?
    /// Read for the owners, read and write for the device.
    public var ACL: ACL

    public init(userID: String, callerID: String, callerTitle: String, direction: String, route: String,
                outcome: String, startedAt: ParseDate, answeredAt: ParseDate?, endedAt: ParseDate,
                snapshot: ParseFile?, callerSpokeSeconds: Double? = nil, ACL: ACL) {
        self.userID = userID
        self.callerID = callerID
        self.callerTitle = callerTitle
        self.direction = direction
        self.route = route
        self.outcome = outcome
        self.startedAt = startedAt
        self.answeredAt = answeredAt
        self.endedAt = endedAt
        self.snapshot = snapshot
        self.callerSpokeSeconds = callerSpokeSeconds
        self.ACL = ACL
    }
}
