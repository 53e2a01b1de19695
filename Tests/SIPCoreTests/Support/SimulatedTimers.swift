import SIPCore

/// Simulated time for transaction tests: keeps the timers the machine started and fires the earliest.
struct SimulatedTimers {
    private(set) var now: Duration = .zero
    private var deadlines: [TransactionTimer: Duration] = [:]
    /// When each `send` happened, in order.
    private(set) var sendTimes: [Duration] = []
    private(set) var reported: [TransactionAction] = []

    mutating func apply(_ actions: [TransactionAction]) {
        for action in actions {
            switch action {
            case .startTimer(let timer, let after): deadlines[timer] = now + after
            case .cancelTimer(let timer): deadlines[timer] = nil
            case .send: sendTimes.append(now)
            default: reported.append(action)
            }
        }
    }

    /// Moves time to the earliest running timer and returns it, or nil when none runs.
    mutating func advance() -> TransactionTimer? {
        guard let (timer, deadline) = deadlines.min(by: { $0.value < $1.value }) else { return nil }
        now = deadline
        deadlines[timer] = nil
        return timer
    }

    var running: Set<TransactionTimer> { Set(deadlines.keys) }
}

extension Duration {
    static func ms(_ value: Int64) -> Duration { .milliseconds(value) }
}

func response(_ status: Int, to request: SIPMessage, toTag: String? = "b1") -> SIPMessage {
    ResponseBuilder.response(to: request, status: status, reason: "R", toTag: status == 100 ? nil : toTag)
}

let sampleRegister = """
    REGISTER sip:example.com SIP/2.0
    Via: SIP/2.0/UDP 192.0.2.10:5060;branch=z9hG4bKreg1;rport
    Max-Forwards: 70
    From: <sip:alice@example.com>;tag=r1
    To: <sip:alice@example.com>
    Call-ID: reg-1@192.0.2.10
    CSeq: 1 REGISTER
    Contact: <sip:alice@192.0.2.10:5060>
    Expires: 3600
    Content-Length: 0


    """
