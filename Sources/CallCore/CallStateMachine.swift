/// The device's call logic as a sans-IO value: `handle` an event with its instant, get actions back.
///
/// No clocks, sockets or threads inside: timers are `armTimer` actions that come back as `timerFired`
/// events, and a timer whose deadline is at or before an event's instant is handled before that event even
/// if its `timerFired` has not arrived yet, so the result depends on timestamps, not on delivery order.
/// Every call ends with exactly one `logCallOutcome`; `startMedia` is issued at most once per call and
/// never for a call that was not accepted.
///
/// Instants must be monotonic; an instant earlier than the previous one is treated as the previous one.
public struct CallStateMachine: Sendable {
    /// The current phase.
    public internal(set) var state: CallState = .offline
    /// The policy in force.
    public internal(set) var policy: CallPolicy
    /// Do-not-disturb (toggled by a long press on accept).
    public internal(set) var doNotDisturb: Bool
    /// Whether the backend registration is up.
    public internal(set) var backendUp = false
    /// Required devices currently missing.
    public internal(set) var faults: Set<String> = []
    /// The button and LED lines are not claimed: the device shows `fault`, but calls are still answered.
    public internal(set) var controlsUnavailable = false
    /// The accept button is stuck or chatters: it cannot answer.
    public internal(set) var acceptUnusable = false
    /// Until when the call button is ignored after it placed a call (`CallPolicy.callButtonCooldown`).
    public internal(set) var callButtonReadyAt: CallInstant?
    /// How many canned replies were sent: numbers each reply's text id.
    var repliesSent: UInt64 = 0

    var timers = TimerTable()
    var nextOutgoingRequest: UInt64 = 1
    var lastInstant = CallInstant.zero
    var shownLED: LEDPattern?
    var reportedStatus: String?

    /// A machine that starts `offline` (no backend yet). `doNotDisturb` is restored from the state directory.
    public init(policy: CallPolicy, doNotDisturb: Bool = false) {
        self.policy = policy
        self.doNotDisturb = doNotDisturb
    }

    /// The LED and status for the current state, if not already emitted. Call once at startup.
    public mutating func startupActions() -> [CallAction] {
        var actions: [CallAction] = []
        syncIndicators(into: &actions)
        return actions
    }

    /// Feeds one event that happened at `instant`; returns what the IO layer must do, in order.
    public mutating func handle(_ event: CallEvent, at instant: CallInstant) -> [CallAction] {
        let now = max(instant, lastInstant)
        lastInstant = now
        if case .timerFired(let timer) = event, !timers.isArmed(timer) {
            return []  // stale: its phase is over, or its deadline was already handled
        }
        var actions: [CallAction] = []
        expireDueTimers(at: now, before: event, into: &actions)
        apply(event, at: now, into: &actions)
        syncIndicators(into: &actions)
        if case .timerFired(let delivered) = event {
            // An earlier-due timer may have ended the phase and cancelled this one; the IO layer has
            // already delivered it, so there is nothing left to cancel.
            actions.removeAll { $0 == .cancelTimer(delivered) }
        }
        return actions
    }

    /// The resting state the flags call for.
    var restingState: CallState {
        if !faults.isEmpty || controlsUnavailable { return .fault }
        return backendUp ? .idle : .offline
    }

    /// Re-derives a resting state after a flag changed; call states are left alone.
    mutating func settle() {
        if state.context == nil {
            state = restingState
        }
    }

    private mutating func apply(_ event: CallEvent, at now: CallInstant, into actions: inout [CallAction]) {
        switch event {
        case .backendUp:
            backendUp = true
            settle()
        case .backendDown:
            backendUp = false
            settle()
        case .incomingCall(let call, let localTime):
            receive(call, localTime: localTime, at: now, into: &actions)
        case .button(let button):
            press(button, at: now, into: &actions)
        case .outgoingCallCreated(let request, let rowID, let sessionID):
            outgoingCallCreated(request: request, rowID: rowID, sessionID: sessionID, into: &actions)
        case .outgoingCallFailed(let request, let reason):
            outgoingCallFailed(request: request, reason: reason, at: now, into: &actions)
        case .signal(let sessionID, let signal):
            guard let context = state.context, context.sessionID == sessionID else { return }
            receive(signal, in: context, at: now, into: &actions)
        case .mediaUp(let sessionID):
            mediaUp(sessionID: sessionID, at: now, into: &actions)
        case .mediaDown(let sessionID):
            mediaDown(sessionID: sessionID, at: now, into: &actions)
        case .mediaFailed(let sessionID, let reason):
            recordMediaFailure(reason, sessionID: sessionID)
            mediaDown(sessionID: sessionID, at: now, into: &actions)
        case .timerFired(let timer):
            if timers.consume(timer) {
                timerExpired(timer.kind, at: now, into: &actions)
            }
        case .deviceFault(let device):
            faults.insert(device)
            deviceFailed(at: now, into: &actions)
        case .deviceRecovered(let device):
            faults.remove(device)
            settle()
        case .policyUpdated(let newPolicy):
            policy = newPolicy
        case .shuttingDown:
            shutDown(at: now, into: &actions)
        }
    }
}
