/// What a transaction asks of its IO layer and TU, to be carried out in array order.
public enum TransactionAction: Hashable, Sendable {
    /// Send (or retransmit) this message over the transaction's transport to its peer.
    case send(SIPMessage)
    /// Start (or restart) a one-shot timer; report `timerFired` when it runs out.
    case startTimer(TransactionTimer, after: Duration)
    case cancelTimer(TransactionTimer)
    /// Pass this message up to the TU: a response (client) or the request (server).
    case deliver(SIPMessage)
    /// Tell the TU the transaction timed out (a client acts as if it received 408, §8.1.3.1).
    case timedOut
    /// Tell the TU the transport failed (a client acts as if it received 503, §8.1.3.1).
    case transportFailed
    /// The transaction is over; forget it.
    case terminated
}
