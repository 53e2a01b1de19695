/// The timers of RFC 3261 §17 (table 4), named as there.
public enum TransactionTimer: String, Hashable, Sendable {
    /// INVITE client: request retransmission (unreliable only).
    case a = "A"
    /// INVITE client: transaction timeout.
    case b = "B"
    /// INVITE client: wait for response retransmissions in Completed.
    case d = "D"
    /// Non-INVITE client: request retransmission (unreliable only).
    case e = "E"
    /// Non-INVITE client: transaction timeout.
    case f = "F"
    /// Non-INVITE client: wait for response retransmissions in Completed.
    case k = "K"
    /// INVITE server: final response retransmission (unreliable only).
    case g = "G"
    /// INVITE server: wait for the ACK.
    case h = "H"
    /// INVITE server: absorb ACK retransmissions in Confirmed.
    case i = "I"
    /// Non-INVITE server: absorb request retransmissions in Completed.
    case j = "J"
}
