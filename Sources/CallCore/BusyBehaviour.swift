/// What the device does with a new incoming call while it is already ringing or in a call.
/// The new row is deleted in both cases, so it never rings later.
public enum BusyBehaviour: Equatable, Sendable {
    /// Join the new session just long enough to send `bye {reason:"busy"}`, so the caller learns at once.
    case reject
    /// Send nothing; the caller's own ring timeout ends its attempt.
    case ignore
}
