import CallCore

/// Drives one `CallStateMachine` on simulated time, records every action, and remembers each timer it was
/// asked to arm so tests can fire timers by kind (including ones the machine has since cancelled).
struct Harness {
    private(set) var machine: CallStateMachine
    private(set) var now = CallInstant.zero
    /// Every action emitted so far, in order.
    private(set) var actions: [CallAction] = []
    /// Deadline of every timer ever armed.
    private(set) var deadlines: [CallTimer: CallInstant] = [:]
    /// The most recently armed timer of each kind.
    private(set) var lastArmed: [CallTimerKind: CallTimer] = [:]
    /// Timers armed and neither cancelled nor delivered.
    private(set) var live: Set<CallTimer> = []

    init(_ policy: CallPolicy = CallPolicy(), backendUp: Bool = true, doNotDisturb: Bool = false) {
        machine = CallStateMachine(policy: policy, doNotDisturb: doNotDisturb)
        record(machine.startupActions())
        if backendUp {
            send(.backendUp)
        }
    }

    /// Feeds `event` at `seconds` (or at the current time).
    @discardableResult
    mutating func send(_ event: CallEvent, at seconds: Double? = nil) -> [CallAction] {
        if let seconds {
            now = .seconds(seconds)
        }
        let output = machine.handle(event, at: now)
        if case .timerFired(let timer) = event {
            live.remove(timer)
        }
        record(output)
        return output
    }

    /// Delivers `timerFired` for the last timer of `kind`, at `seconds` or at its deadline (never earlier
    /// than the current time). Returns `nil` if no timer of that kind was ever armed.
    @discardableResult
    mutating func fire(_ kind: CallTimerKind, at seconds: Double? = nil) -> [CallAction]? {
        guard let timer = lastArmed[kind], let deadline = deadlines[timer] else { return nil }
        let instant = seconds.map(CallInstant.seconds) ?? max(now, deadline)
        now = instant
        return send(.timerFired(timer))
    }

    /// Fires live timers in deadline order until none is left, as a patient IO layer would.
    mutating func drain() {
        for _ in 0..<100 {
            let pending = live.compactMap { timer in deadlines[timer].map { (timer, $0) } }
            guard let (next, deadline) = pending.min(by: { ($0.1, $0.0.generation) < ($1.1, $1.0.generation) })
            else { return }
            now = max(now, deadline)
            send(.timerFired(next))
        }
    }

    /// Runs a scripted list of steps.
    mutating func run(_ steps: [Step]) {
        for step in steps {
            switch step {
            case .send(let event, let seconds):
                send(event, at: seconds)
            case .fire(let kind, let seconds):
                fire(kind, at: seconds)
            }
        }
    }

    private mutating func record(_ output: [CallAction]) {
        for action in output {
            switch action {
            case .armTimer(let timer, let deadline):
                deadlines[timer] = deadline
                lastArmed[timer.kind] = timer
                live.insert(timer)
            case .cancelTimer(let timer):
                live.remove(timer)
            default:
                break
            }
        }
        actions += output
    }
}

/// One scripted input.
enum Step: Sendable {
    case send(CallEvent, at: Double)
    /// Fire the last timer of this kind, at `at` or at its deadline.
    case fire(CallTimerKind, at: Double? = nil)
}

extension Harness {
    /// Every logged call summary.
    var summaries: [CallSummary] {
        actions.compactMap { if case .logCallOutcome(let summary) = $0 { summary } else { nil } }
    }

    /// The outcomes logged for a room.
    func outcomes(session: String = "s1") -> [CallOutcome] {
        summaries.filter { $0.sessionID == session }.map(\.outcome)
    }

    /// How many `startMedia` were issued for a room.
    func mediaStarts(session: String = "s1") -> Int {
        actions.filter { if case .startMedia(session, _, _) = $0 { true } else { false } }.count
    }

    /// The LED pattern last set.
    var led: LEDPattern? {
        actions.reversed().lazy.compactMap { if case .setLEDPattern(let pattern) = $0 { pattern } else { nil } }.first
    }

    /// The status last reported.
    var status: String? {
        actions.reversed().lazy.compactMap { if case .reportState(let text) = $0 { text } else { nil } }.first
    }

    /// Signals sent into a room, in order.
    func signals(session: String = "s1") -> [CallSignal] {
        actions.compactMap { if case .sendSignal(session, _, let signal) = $0 { signal } else { nil } }
    }
}
