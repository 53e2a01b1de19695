/// The phase of the device (SYSTEM.md §6). Do-not-disturb is an orthogonal flag on the machine, not a state.
///
/// Resting states (`offline`, `idle`, `fault`) follow from the flags: a missing device wins over a missing
/// backend, which wins over idle. Every other state carries the call's context.
public enum CallState: Equatable, Sendable {
    /// No backend registration; incoming rows are still honoured if they arrive.
    case offline
    /// Ready for calls.
    case idle
    /// A required device is missing; incoming calls are declined with `bye "error"`.
    case fault
    /// An incoming call is alerting.
    case ringing(CallContext)
    /// An outgoing call's row is being created, or the callee has not said `ringing` yet.
    case dialing(CallContext)
    /// The callee of an outgoing call is ringing.
    case ringingRemote(CallContext)
    /// The call was accepted; media is being set up.
    case connecting(CallContext)
    /// Media is up (it may drop briefly; `mediaTimeout` bounds that).
    case inCall(CallContext)
    /// The call is over; waiting for the media layer to confirm teardown.
    case ending(CallContext)

    /// The call in progress, if any.
    public var context: CallContext? {
        switch self {
        case .offline, .idle, .fault:
            return nil
        case .ringing(let context), .dialing(let context), .ringingRemote(let context),
            .connecting(let context), .inCall(let context), .ending(let context):
            return context
        }
    }

    /// A short name for logs and `STATUS=`.
    public var name: String {
        switch self {
        case .offline: "offline"
        case .idle: "idle"
        case .fault: "fault"
        case .ringing: "ringing"
        case .dialing: "dialing"
        case .ringingRemote: "ringingRemote"
        case .connecting: "connecting"
        case .inCall: "inCall"
        case .ending: "ending"
        }
    }

    /// The same state carrying an updated context (resting states are returned unchanged).
    func replacing(_ context: CallContext) -> CallState {
        switch self {
        case .offline, .idle, .fault: self
        case .ringing: .ringing(context)
        case .dialing: .dialing(context)
        case .ringingRemote: .ringingRemote(context)
        case .connecting: .connecting(context)
        case .inCall: .inCall(context)
        case .ending: .ending(context)
        }
    }
}
