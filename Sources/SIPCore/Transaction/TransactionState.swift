/// The states of the four transaction machines of RFC 3261 §17 (figures 5–8); each uses a subset.
public enum TransactionState: Hashable, Sendable {
    /// INVITE client before any response.
    case calling
    /// Non-INVITE client and server before any response.
    case trying
    case proceeding
    case completed
    /// INVITE server after the ACK of a non-2xx final response.
    case confirmed
    case terminated
}
