/// What the machine knows about the call in progress; carried by every in-call `CallState`.
public struct CallContext: Equatable, Sendable {
    public var direction: CallDirection
    /// The `ActiveSessions` row; for an outgoing call known once created.
    public var rowID: String?
    /// The signaling room; for an outgoing call known once the row is created.
    public var sessionID: String?
    /// The `createOutgoingCall` request number of an outgoing call.
    public var outgoingRequest: UInt64?
    /// The other party's `userID` (empty when an outgoing target is resolved by title).
    public var remoteID: String
    /// The other party's display name.
    public var remoteTitle: String
    /// The other party's `peerId` in the room, once seen.
    public var partner: String?
    public var wantsVideo: Bool
    public var wantsAudio: Bool
    /// When the row arrived or the call button was pressed.
    public var startedAt: CallInstant
    /// When the call was accepted.
    public var answeredAt: CallInstant?
    /// When media first came up.
    public var connectedAt: CallInstant?
    /// Whether `startMedia` was issued (at most once per call).
    public var mediaStarted: Bool
    /// Why the partner's media last failed, as the media layer reported it (`mediaFailed`).
    public var mediaFailure: CallFailureReason?
    /// Admitted view-only peers, in admission order.
    public var viewers: [String]

    init(incoming call: IncomingCall, at now: CallInstant) {
        direction = .incoming
        rowID = call.rowID
        sessionID = call.sessionID
        outgoingRequest = nil
        remoteID = call.callerID
        remoteTitle = call.callerTitle
        partner = nil
        wantsVideo = call.wantsVideo
        wantsAudio = call.wantsAudio
        startedAt = now
        answeredAt = nil
        connectedAt = nil
        mediaStarted = false
        mediaFailure = nil
        viewers = []
    }

    init(outgoing target: CallTarget, request: UInt64, at now: CallInstant) {
        direction = .outgoing
        rowID = nil
        sessionID = nil
        outgoingRequest = request
        switch target {
        case .user(let id):
            remoteID = id
            remoteTitle = id
        case .nearest(let title, _):
            remoteID = ""
            remoteTitle = title
        case .sip(let uri):
            remoteID = uri
            remoteTitle = uri
        }
        partner = nil
        wantsVideo = true
        wantsAudio = true
        startedAt = now
        answeredAt = nil
        connectedAt = nil
        mediaStarted = false
        mediaFailure = nil
        viewers = []
    }

    /// Whether `peer` may speak for the other party: the known partner, or anyone not a viewer while the
    /// partner is still unknown.
    func isPartner(_ peer: String) -> Bool {
        if let partner { return partner == peer }
        return !viewers.contains(peer)
    }

    /// The outcome of an accepted call that ends by `cause`: `answered` only when the partner's media came
    /// up; otherwise `failed`, with the media layer's reason, or what the ending says about it.
    func outcomeAfterAnswer(_ cause: CallEndCause) -> CallOutcome {
        if connectedAt != nil { return .answered(ended: cause) }
        let reason: CallFailureReason
        switch cause {
        case .mediaTimeout: reason = mediaFailure ?? .mediaTimeout
        case .sessionError: reason = .signalingLost
        case .localHangup, .remoteBye, .remoteLeft, .maxDuration, .deviceFault, .shutdown: reason = mediaFailure ?? .endedBeforeMedia
        }
        return .failed(reason, ended: cause)
    }
}
