/// The INVITE client transaction of RFC 3261 §17.1.1 (figure 5), as a value: feed it events, carry out the
/// actions it returns. A 2xx ends it at once (the TU ACKs 2xx itself, §13.2.2.4); RFC 6026's Accepted state
/// is not modelled.
public struct InviteClientTransaction: Sendable {
    public let request: SIPMessage
    public let reliable: Bool
    public let timers: SIPTimerValues
    public private(set) var state: TransactionState = .calling
    private var timerAInterval: Duration
    private var ack: SIPMessage?

    /// `reliable`: TCP/TLS/SCTP, no retransmissions and zero-length Completed state (§17.1.1.2).
    public init(request: SIPMessage, reliable: Bool, timers: SIPTimerValues = .standard) {
        precondition(request.method == .invite, "an INVITE client transaction needs an INVITE")
        self.request = request
        self.reliable = reliable
        self.timers = timers
        timerAInterval = timers.t1
    }

    /// Sends the INVITE and starts timers A (unreliable only) and B.
    public func start() -> [TransactionAction] {
        var actions: [TransactionAction] = [.send(request)]
        if !reliable { actions.append(.startTimer(.a, after: timerAInterval)) }
        actions.append(.startTimer(.b, after: timers.transactionTimeout))
        return actions
    }

    public mutating func handle(_ event: TransactionEvent) -> [TransactionAction] {
        switch (state, event) {
        case (.calling, .timerFired(.a)):
            // Timer A doubles without a cap; timer B ends the retransmissions (§17.1.1.2).
            timerAInterval = timerAInterval * 2
            return [.send(request), .startTimer(.a, after: timerAInterval)]
        case (.calling, .timerFired(.b)), (.proceeding, .timerFired(.b)):
            return terminate(with: [.timedOut, .cancelTimer(.a)])
        case (.calling, .transportError), (.proceeding, .transportError):
            return terminate(with: [.transportFailed, .cancelTimer(.a), .cancelTimer(.b)])
        case (.calling, .received(let response)), (.proceeding, .received(let response)):
            return receive(response)
        case (.completed, .received(let response)) where (response.statusCode ?? 0) >= 300:
            // A retransmitted final response: ACK again, do not tell the TU (§17.1.1.2).
            return ack.map { [.send($0)] } ?? []
        case (.completed, .timerFired(.d)):
            return terminate(with: [])
        case (.completed, .transportError):
            return terminate(with: [.transportFailed, .cancelTimer(.d)])
        default:
            return []
        }
    }

    private mutating func receive(_ response: SIPMessage) -> [TransactionAction] {
        guard let status = response.statusCode else { return [] }
        switch status {
        case 100..<200:
            let wasCalling = state == .calling
            state = .proceeding
            return (wasCalling ? [.cancelTimer(.a)] : []) + [.deliver(response)]
        case 200..<300:
            return terminate(with: [.cancelTimer(.a), .cancelTimer(.b), .deliver(response)])
        default:
            let ack = AckBuilder.ack(for: request, response: response)
            self.ack = ack
            state = .completed
            var actions: [TransactionAction] = [.cancelTimer(.a), .cancelTimer(.b), .send(ack), .deliver(response)]
            // Timer D: 32 s or more over UDP, to absorb retransmitted responses; zero when reliable.
            if reliable { return terminate(with: actions) }
            actions.append(.startTimer(.d, after: max(.seconds(32), timers.transactionTimeout)))
            return actions
        }
    }

    private mutating func terminate(with actions: [TransactionAction]) -> [TransactionAction] {
        state = .terminated
        return actions + [.terminated]
    }
}
