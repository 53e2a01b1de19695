/// The timers the machine has armed and not yet seen fire, with their deadlines.
///
/// Emits `armTimer`/`cancelTimer` actions as it changes, in generation order so output never depends on
/// dictionary (hash-seed) order.
struct TimerTable: Equatable, Sendable {
    private var deadlines: [CallTimer: CallInstant] = [:]
    private var nextGeneration: UInt64 = 1

    func isArmed(_ timer: CallTimer) -> Bool {
        deadlines[timer] != nil
    }

    func isArmed(_ kind: CallTimerKind) -> Bool {
        deadlines.keys.contains { $0.kind == kind }
    }

    func deadline(of timer: CallTimer) -> CallInstant? {
        deadlines[timer]
    }

    mutating func arm(_ kind: CallTimerKind, at deadline: CallInstant, into actions: inout [CallAction]) {
        let timer = CallTimer(kind: kind, generation: nextGeneration)
        nextGeneration += 1
        deadlines[timer] = deadline
        actions.append(.armTimer(timer, at: deadline))
    }

    /// Forgets a timer that fired; `false` if it was not armed (stale).
    mutating func consume(_ timer: CallTimer) -> Bool {
        deadlines.removeValue(forKey: timer) != nil
    }

    mutating func cancel(_ kind: CallTimerKind, into actions: inout [CallAction]) {
        for timer in sorted() where timer.kind == kind {
            deadlines[timer] = nil
            actions.append(.cancelTimer(timer))
        }
    }

    /// Cancels every timer of the call (the device's own, `outlivesCalls`, keep running).
    mutating func cancelAll(into actions: inout [CallAction]) {
        for timer in sorted() where !timer.kind.outlivesCalls {
            deadlines[timer] = nil
            actions.append(.cancelTimer(timer))
        }
    }

    /// The armed timer with the earliest deadline at or before `now` (ties: the earlier armed).
    func earliestDue(at now: CallInstant) -> CallTimer? {
        deadlines
            .filter { $0.value <= now }
            .min { ($0.value, $0.key.generation) < ($1.value, $1.key.generation) }?
            .key
    }

    private func sorted() -> [CallTimer] {
        deadlines.keys.sorted { $0.generation < $1.generation }
    }
}
