/// The non-INVITE client transaction of RFC 3261 §17.1.2 (figure 6).
public struct NonInviteClientTransaction: Sendable {
    public let request: SIPMessage
    public let reliable: Bool
    public let timers: SIPTimerValues
    public private(set) var state: TransactionState = .trying
    private var timerEInterval: Duration

    public init(request: SIPMessage, reliable: Bool, timers: SIPTimerValues = .standard) {
        precondition(request.isRequest && request.method != .invite && request.method != .ack,
            "a non-INVITE client transaction needs a request other than INVITE and ACK")
        self.request = request
        self.reliable = reliable
        self.timers = timers
        timerEInterval = timers.t1
    }

    /// Sends the request and starts timers E (unreliable only) and F.
    public func start() -> [TransactionAction] {
        var actions: [TransactionAction] = [.send(request)]
        if !reliable { actions.append(.startTimer(.e, after: timerEInterval)) }
        actions.append(.startTimer(.f, after: timers.transactionTimeout))
        return actions
    }

    public mutating func handle(_ event: TransactionEvent) -> [TransactionAction] {
        switch (state, event) {
        case (.trying, .timerFired(.e)):
            // min(2^n * T1, T2) while Trying (§17.1.2.2).
            timerEInterval = min(timerEInterval * 2, timers.t2)
            return [.send(request), .startTimer(.e, after: timerEInterval)]
        case (.proceeding, .timerFired(.e)):
            // Once a provisional response arrived, retransmit every T2.
            timerEInterval = timers.t2
            return [.send(request), .startTimer(.e, after: timerEInterval)]
        case (.trying, .timerFired(.f)), (.proceeding, .timerFired(.f)):
            return terminate(with: [.cancelTimer(.e), .timedOut])
        case (.trying, .transportError), (.proceeding, .transportError):
            return terminate(with: [.cancelTimer(.e), .cancelTimer(.f), .transportFailed])
        case (.trying, .received(let response)), (.proceeding, .received(let response)):
            return receive(response)
        case (.completed, .timerFired(.k)):
            return terminate(with: [])
        default:
            return []
        }
    }

    private mutating func receive(_ response: SIPMessage) -> [TransactionAction] {
        guard let status = response.statusCode else { return [] }
        if status < 200 {
            state = .proceeding
            return [.deliver(response)]
        }
        state = .completed
        let actions: [TransactionAction] = [.cancelTimer(.e), .cancelTimer(.f), .deliver(response)]
        // Timer K: T4 over UDP to absorb retransmitted responses, zero when reliable.
        if reliable { return terminate(with: actions) }
        return actions + [.startTimer(.k, after: timers.t4)]
    }

    private mutating func terminate(with actions: [TransactionAction]) -> [TransactionAction] {
        state = .terminated
        return actions + [.terminated]
    }
}
