/// The non-INVITE server transaction of RFC 3261 §17.2.2 (figure 8).
public struct NonInviteServerTransaction: Sendable {
    public let request: SIPMessage
    public let reliable: Bool
    public let timers: SIPTimerValues
    public private(set) var state: TransactionState = .trying
    private var lastResponse: SIPMessage?

    public init(request: SIPMessage, reliable: Bool, timers: SIPTimerValues = .standard) {
        precondition(request.isRequest && request.method != .invite && request.method != .ack,
            "a non-INVITE server transaction needs a request other than INVITE and ACK")
        self.request = request
        self.reliable = reliable
        self.timers = timers
    }

    /// Passes the request to the TU.
    public func start() -> [TransactionAction] { [.deliver(request)] }

    public mutating func handle(_ event: TransactionEvent) -> [TransactionAction] {
        switch (state, event) {
        case (.trying, .received(let message)) where message.isRequest:
            // Retransmissions before any response are absorbed (§17.2.2).
            return []
        case (.proceeding, .received(let message)) where message.isRequest,
            (.completed, .received(let message)) where message.isRequest:
            return lastResponse.map { [.send($0)] } ?? []
        case (.trying, .respond(let response)), (.proceeding, .respond(let response)):
            return respond(response)
        case (.proceeding, .transportError), (.completed, .transportError):
            return terminate(with: [.transportFailed])
        case (.completed, .timerFired(.j)):
            return terminate(with: [])
        default:
            return []
        }
    }

    private mutating func respond(_ response: SIPMessage) -> [TransactionAction] {
        guard let status = response.statusCode else { return [] }
        lastResponse = response
        if status < 200 {
            state = .proceeding
            return [.send(response)]
        }
        state = .completed
        // Timer J: 64*T1 over UDP to absorb retransmitted requests, zero when reliable.
        if reliable { return terminate(with: [.send(response)]) }
        return [.send(response), .startTimer(.j, after: timers.transactionTimeout)]
    }

    private mutating func terminate(with actions: [TransactionAction]) -> [TransactionAction] {
        state = .terminated
        return actions + [.terminated]
    }
}
