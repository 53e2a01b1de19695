/// An output of `CallStateMachine` for the IO layer to carry out, in array order.
///
/// Ordering contract: a `sendSignal` right after `joinSession` is queued by the IO layer until the room is
/// joined; `to: nil` means every peer in the room (or the first to arrive, if the room is still empty when the
/// join completes). A `leaveSession` after a `sendSignal` is done after that signal is sent.
public enum CallAction: Equatable, Sendable {
    /// Delete our outgoing call's `ActiveSessions` row, which the callee may not have taken yet (404 is
    /// fine: someone else deleted it). Incoming rows are deleted by the intake as it takes them.
    case deleteCallRow(rowID: String)
    /// Save an `ActiveSessions` row to the target; answer with `outgoingCallCreated`/`outgoingCallFailed`.
    case createOutgoingCall(request: UInt64, target: CallTarget)
    /// Connect to the room's `signalURL` with the row's token for `role`.
    case joinSession(sessionID: String, role: SessionRole)
    /// Send a signal to a peer of the room (`to: nil`: see the ordering contract above).
    case sendSignal(sessionID: String, to: String?, CallSignal)
    /// Close the room's signaling socket.
    case leaveSession(sessionID: String)
    /// Film the device's next camera (`[video] sources`, issue #22) and tell `to` which one it films now.
    case nextCamera(sessionID: String, to: String?)
    /// Start the call's media with `peer` (issued at most once per call); report `mediaUp`/`mediaDown`, or
    /// `mediaFailed` when the media layer knows why it failed.
    case startMedia(sessionID: String, peer: String, MediaPlan)
    /// Stop all media of the room (partner and viewers); report `mediaDown` when done.
    case stopMedia(sessionID: String)
    /// Add a view-only fan-out leg for `peer` (SYSTEM.md §3, viewers).
    case admitViewer(sessionID: String, peer: String)
    /// Refuse a viewer: send it `bye "busy"` and create no media leg.
    case refuseViewer(sessionID: String, peer: String)
    /// Drop the fan-out leg of a viewer that left.
    case removeViewer(sessionID: String, peer: String)
    /// Pulse the door relay for its configured pulse length.
    case pulseDoor
    /// A door-open request was refused (log it; nothing is sent to the peer).
    case refuseDoorOpen(sessionID: String, peer: String, DoorRefusal)
    /// Show this pattern on the status LED.
    case setLEDPattern(LEDPattern)
    /// Run a one-shot timer; deliver `timerFired` at (or after) `at`.
    case armTimer(CallTimer, at: CallInstant)
    /// Drop a timer; if it already fired, the machine ignores the late event anyway.
    case cancelTimer(CallTimer)
    /// Log the finished call and count it in the metrics.
    case logCallOutcome(CallSummary)
    /// Publish a one-line status (systemd `STATUS=`); control characters are already removed.
    case reportState(String)
}
