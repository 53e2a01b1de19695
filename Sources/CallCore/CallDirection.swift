/// Who started a call.
public enum CallDirection: Equatable, Sendable {
    /// Someone called the device (an `ActiveSessions` row arrived).
    case incoming
    /// The device called out (call button).
    case outgoing
}
