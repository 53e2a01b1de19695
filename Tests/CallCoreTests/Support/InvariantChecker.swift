import CallCore

/// Watches a machine's inputs and outputs and records every broken invariant:
/// no action for a stale timer, at most one `startMedia` per call and never after its outcome, at most one
/// outcome per call and no `startMedia` for an unanswered one, balanced join/leave and start/stop, only live
/// timers cancelled, and an LED that always matches the state (derived here independently of the machine).
struct InvariantChecker {
    private(set) var failures: [String] = []
    private(set) var liveTimers: [CallTimer: CallInstant] = [:]
    private var everArmed: Set<CallTimer> = []
    private(set) var outcomes: [String: [CallOutcome]] = [:]
    private var mediaStarts: [String: Int] = [:]
    private var mediaStops: [String: Int] = [:]
    private var joins: [String: Int] = [:]
    private var leaves: [String: Int] = [:]
    private var led: LEDPattern?

    /// Every timer that was armed and is no longer live (fired or cancelled).
    var retiredTimers: [CallTimer] {
        everArmed.filter { liveTimers[$0] == nil }.sorted { $0.generation < $1.generation }
    }

    mutating func observe(_ event: CallEvent, output: [CallAction], machine: CallStateMachine) {
        if case .timerFired(let timer) = event {
            if liveTimers[timer] == nil, !output.isEmpty {
                failures.append("stale timer \(timer) produced \(output)")
            }
            liveTimers[timer] = nil
        }
        for action in output {
            check(action)
        }
        if led != expectedLED(machine) {
            failures.append("LED \(String(describing: led)) in \(machine.state.name), expected \(expectedLED(machine))")
        }
        if let context = machine.state.context, let session = context.sessionID,
            context.mediaStarted != (mediaStarts[session, default: 0] == 1)
        {
            failures.append("context.mediaStarted disagrees with startMedia count for \(session)")
        }
    }

    /// Checks for the end of a run, once every timer has fired.
    mutating func finish(machine: CallStateMachine, rooms: Set<String>) {
        if machine.state.context != nil { failures.append("still in \(machine.state.name) after draining") }
        if !liveTimers.isEmpty { failures.append("timers still live: \(liveTimers.keys)") }
        for room in rooms where outcomes[room, default: []].count != 1 {
            failures.append("room \(room) has \(outcomes[room, default: []].count) outcomes, expected 1")
        }
        for (room, count) in joins where leaves[room, default: 0] != count {
            failures.append("room \(room) joined \(count)x, left \(leaves[room, default: 0])x")
        }
        for (room, count) in mediaStarts where mediaStops[room, default: 0] != count {
            failures.append("room \(room) started media \(count)x, stopped \(mediaStops[room, default: 0])x")
        }
    }

    private mutating func check(_ action: CallAction) {
        switch action {
        case .armTimer(let timer, let deadline):
            if !everArmed.insert(timer).inserted { failures.append("timer \(timer) armed twice") }
            liveTimers[timer] = deadline
        case .cancelTimer(let timer):
            if liveTimers.removeValue(forKey: timer) == nil { failures.append("cancelled a dead timer \(timer)") }
        case .startMedia(let room, _, _):
            mediaStarts[room, default: 0] += 1
            if mediaStarts[room]! > 1 { failures.append("second startMedia for \(room)") }
            if !outcomes[room, default: []].isEmpty { failures.append("startMedia after the outcome of \(room)") }
        case .stopMedia(let room):
            mediaStops[room, default: 0] += 1
            if mediaStarts[room, default: 0] != 1 { failures.append("stopMedia without startMedia for \(room)") }
        case .logCallOutcome(let summary):
            let room = summary.sessionID ?? "?"
            outcomes[room, default: []].append(summary.outcome)
            if outcomes[room]!.count > 1 { failures.append("second outcome for \(room): \(outcomes[room]!)") }
            if !summary.outcome.wasAnswered, mediaStarts[room, default: 0] > 0 {
                failures.append("\(room) answered (startMedia) but logged \(summary.outcome)")
            }
        case .joinSession(let room, _):
            joins[room, default: 0] += 1
            if joins[room]! > 1 { failures.append("joined \(room) twice") }
        case .leaveSession(let room):
            leaves[room, default: 0] += 1
            if leaves[room]! > joins[room, default: 0] { failures.append("left \(room) without joining") }
        case .setLEDPattern(let pattern):
            led = pattern
        default:
            break
        }
    }

    /// The LED table of SYSTEM.md §7, written out again so the machine is not checked against itself.
    private func expectedLED(_ machine: CallStateMachine) -> LEDPattern {
        switch machine.state {
        case .offline, .idle, .fault, .ending:
            if !machine.faults.isEmpty || machine.controlsUnavailable { return .fault }
            if !machine.backendUp { return .offline }
            return machine.doNotDisturb ? .off : .idle
        case .ringing, .dialing, .ringingRemote: return .ringing
        case .connecting: return .connecting
        case .inCall: return .inCall
        }
    }
}
