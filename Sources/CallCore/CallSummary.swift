/// The record of one finished call, for the log and the call metrics (SYSTEM.md §9).
public struct CallSummary: Equatable, Sendable {
    public var direction: CallDirection
    public var rowID: String?
    public var sessionID: String?
    public var remoteID: String
    public var remoteTitle: String
    public var outcome: CallOutcome
    /// From ring start (row arrival or call button) to the answer; `nil` if never answered.
    public var ringToAnswer: Duration?
    /// From the answer to media first up; `nil` if media never came up.
    public var setupTime: Duration?
    /// From media first up to the end; `nil` if media never came up.
    public var talkTime: Duration?
    /// From ring start to the end.
    public var totalDuration: Duration

    public init(
        direction: CallDirection,
        rowID: String?,
        sessionID: String?,
        remoteID: String,
        remoteTitle: String,
        outcome: CallOutcome,
        ringToAnswer: Duration?,
        setupTime: Duration?,
        talkTime: Duration?,
        totalDuration: Duration
    ) {
        self.direction = direction
        self.rowID = rowID
        self.sessionID = sessionID
        self.remoteID = remoteID
        self.remoteTitle = remoteTitle
        self.outcome = outcome
        self.ringToAnswer = ringToAnswer
        self.setupTime = setupTime
        self.talkTime = talkTime
        self.totalDuration = totalDuration
    }

    /// The summary of a call that ends at `end`.
    init(_ context: CallContext, outcome: CallOutcome, endedAt end: CallInstant) {
        self.init(
            direction: context.direction,
            rowID: context.rowID,
            sessionID: context.sessionID,
            remoteID: context.remoteID,
            remoteTitle: context.remoteTitle,
            outcome: outcome,
            ringToAnswer: context.answeredAt.map { $0 - context.startedAt },
            setupTime: context.connectedAt.flatMap { connected in context.answeredAt.map { connected - $0 } },
            talkTime: context.connectedAt.map { end - $0 },
            totalDuration: end - context.startedAt
        )
    }
}
