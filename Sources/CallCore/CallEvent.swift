/// An input to `CallStateMachine`. Each arrives with the monotonic instant it happened at.
public enum CallEvent: Equatable, Sendable {
    /// Registration with the backend succeeded (or recovered).
    case backendUp
    /// The backend is unreachable. Calls in progress continue; media is peer to peer.
    case backendDown
    /// An `ActiveSessions` row for this device, with the device's local time of day for quiet hours.
    case incomingCall(IncomingCall, localTime: MinuteOfDay)
    /// A debounced button press.
    case button(ButtonEvent)
    /// The agent is stopping (SIGTERM): a call in progress ends with its outcome, so it is logged.
    case shuttingDown
    /// The row requested by `createOutgoingCall(request:target:)` was saved; the server filled `sessionID`.
    case outgoingCallCreated(request: UInt64, rowID: String, sessionID: String)
    /// The row requested by `createOutgoingCall(request:target:)` could not be created.
    case outgoingCallFailed(request: UInt64, reason: String)
    /// Something happened in a signaling room. Rooms other than the current call's are ignored.
    case signal(sessionID: String, RemoteSignal)
    /// The media session of this room is up (ICE + DTLS connected, media flowing).
    case mediaUp(sessionID: String)
    /// The media session of this room is down (lost, or stopped after `stopMedia`).
    case mediaDown(sessionID: String)
    /// The media session of this room failed for a known `reason` (ICE or DTLS); otherwise like `mediaDown`.
    case mediaFailed(sessionID: String, CallFailureReason)
    /// A timer armed with `armTimer` fired. A timer the machine no longer has armed is ignored.
    case timerFired(CallTimer)
    /// A required device (camera, microphone, speaker …) is missing or failed.
    case deviceFault(device: String)
    /// A previously failed device is back.
    case deviceRecovered(device: String)
    /// The config was reloaded; applies to timers armed from now on and to the next call.
    case policyUpdated(CallPolicy)
}
