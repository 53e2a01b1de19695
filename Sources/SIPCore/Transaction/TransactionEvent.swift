/// What happens to a transaction: the IO layer reports messages, timers and transport failures; the TU
/// (transaction user) hands a server transaction the responses it sends.
public enum TransactionEvent: Hashable, Sendable {
    /// A message from the network that matched this transaction (§17.1.3, §17.2.3).
    case received(SIPMessage)
    /// A timer started with `startTimer` fired (a cancelled one must not be reported).
    case timerFired(TransactionTimer)
    /// The transport could not send (§17.1.4, §17.2.4).
    case transportError
    /// Server transactions: the TU's response to the request.
    case respond(SIPMessage)
}
