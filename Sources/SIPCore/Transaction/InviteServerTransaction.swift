/// The INVITE server transaction of RFC 3261 §17.2.1 (figure 7). It answers 100 Trying at once instead of
/// waiting 200 ms for the TU (§17.2.1 allows either); a 2xx from the TU ends it (the TU retransmits 2xx, §13.3.1.4).
public struct InviteServerTransaction: Sendable {
    public let request: SIPMessage
    public let reliable: Bool
    public let timers: SIPTimerValues
    public private(set) var state: TransactionState = .proceeding
    private var lastResponse: SIPMessage?
    private var timerGInterval: Duration

    public init(request: SIPMessage, reliable: Bool, timers: SIPTimerValues = .standard) {
        precondition(request.method == .invite, "an INVITE server transaction needs an INVITE")
        self.request = request
        self.reliable = reliable
        self.timers = timers
        timerGInterval = timers.t1
    }

    /// Sends 100 Trying and passes the INVITE to the TU.
    public mutating func start() -> [TransactionAction] {
        let trying = ResponseBuilder.response(to: request, status: 100, reason: "Trying")
        lastResponse = trying
        return [.send(trying), .deliver(request)]
    }

    public mutating func handle(_ event: TransactionEvent) -> [TransactionAction] {
        switch (state, event) {
        case (.proceeding, .received(let message)) where message.method == .invite,
            (.completed, .received(let message)) where message.method == .invite:
            // A retransmitted INVITE gets the last response again (§17.2.1).
            return lastResponse.map { [.send($0)] } ?? []
        case (.proceeding, .respond(let response)):
            return respond(response)
        case (.proceeding, .transportError):
            return terminate(with: [.transportFailed])
        case (.completed, .timerFired(.g)):
            timerGInterval = min(timerGInterval * 2, timers.t2)
            return (lastResponse.map { [.send($0)] } ?? []) + [.startTimer(.g, after: timerGInterval)]
        case (.completed, .timerFired(.h)), (.completed, .transportError):
            return terminate(with: [.cancelTimer(.g), .timedOut])
        case (.completed, .received(let message)) where message.method == .ack:
            state = .confirmed
            var actions: [TransactionAction] = [.cancelTimer(.g), .cancelTimer(.h)]
            // Timer I: T4 over UDP to absorb retransmitted ACKs, zero when reliable.
            if reliable { return terminate(with: actions) }
            actions.append(.startTimer(.i, after: timers.t4))
            return actions
        case (.confirmed, .timerFired(.i)):
            return terminate(with: [])
        default:
            return []
        }
    }

    private mutating func respond(_ response: SIPMessage) -> [TransactionAction] {
        guard let status = response.statusCode else { return [] }
        lastResponse = response
        switch status {
        case 100..<200:
            return [.send(response)]
        case 200..<300:
            return terminate(with: [.send(response)])
        default:
            state = .completed
            var actions: [TransactionAction] = [.send(response)]
            if !reliable { actions.append(.startTimer(.g, after: timerGInterval)) }
            actions.append(.startTimer(.h, after: timers.transactionTimeout))
            return actions
        }
    }

    private mutating func terminate(with actions: [TransactionAction]) -> [TransactionAction] {
        state = .terminated
        return actions + [.terminated]
    }
}
