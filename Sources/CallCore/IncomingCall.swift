/// An `ActiveSessions` row addressed to this device (SYSTEM.md §2), as the IO layer read it.
public struct IncomingCall: Equatable, Sendable {
    /// The row's `objectId` (the intake delivers each row once).
    public var rowID: String
    /// The signaling room (`sessionID`); the device joins it with the row's `publisherToken`.
    public var sessionID: String
    /// The caller's `userID`.
    public var callerID: String
    /// The caller's display name.
    public var callerTitle: String
    /// When the ring and its tokens expire, converted by the IO layer from the row's wall-clock `expiresAt`
    /// to the monotonic clock (`now + (expiresAt - wall-clock now)`).
    public var expiresAt: CallInstant
    /// The row's `isVideo`: the caller wants to see the device's camera.
    public var wantsVideo: Bool
    /// The row's `isAudio`: the caller wants two-way audio.
    public var wantsAudio: Bool

    public init(
        rowID: String,
        sessionID: String,
        callerID: String,
        callerTitle: String,
        expiresAt: CallInstant,
        wantsVideo: Bool = true,
        wantsAudio: Bool = true
    ) {
        self.rowID = rowID
        self.sessionID = sessionID
        self.callerID = callerID
        self.callerTitle = callerTitle
        self.expiresAt = expiresAt
        self.wantsVideo = wantsVideo
        self.wantsAudio = wantsAudio
    }
}
