import CallCore
import IntercomTestSupport
import Testing

/// Thousands of random interleavings of the inputs around one incoming call (plus a competing second
/// row), under random policies, replayed from fixed seeds. See `InvariantChecker` for what must hold.
@Suite("Random interleavings")
struct InterleavingPropertyTests {
    static let runs = 4_000

    @Test func invariantsHoldForRandomInterleavings() {
        var totalEvents = 0
        var outcomeKinds: Set<String> = []
        for run in 0..<Self.runs {
            let seed = 0x1CE_CA11 &+ UInt64(run) &* 0x9E37_79B9
            var simulation = Simulation(seed: seed)
            simulation.run()
            totalEvents += simulation.trace.count
            for outcomes in simulation.checker.outcomes.values {
                outcomes.forEach { outcomeKinds.insert(Self.kind(of: $0)) }
            }
            if !simulation.checker.failures.isEmpty {
                Issue.record(
                    """
                    seed \(seed): \(simulation.checker.failures.prefix(3))
                    trace:
                    \(simulation.trace.map(\.description).joined(separator: "\n"))
                    """)
                return
            }
        }
        // The generator must reach the interesting corners, or the invariants above prove little.
        #expect(totalEvents > Self.runs * 10)
        #expect(outcomeKinds.isSuperset(of: ["answered", "ringTimeout", "hangupButton", "remoteBye", "busy", "expired"]))
    }

    @Test func sameSeedReplaysTheSameRun() {
        var first = Simulation(seed: 42)
        var second = Simulation(seed: 42)
        first.run()
        second.run()
        #expect(first.trace == second.trace)
        #expect(!first.trace.isEmpty)
    }

    static func kind(of outcome: CallOutcome) -> String {
        switch outcome {
        case .answered: "answered"
        case .failed(let reason, _): "failed \(reason)"
        case .unanswered(.ringTimeout): "ringTimeout"
        case .unanswered(.hangupButton): "hangupButton"
        case .unanswered(.remoteBye): "remoteBye"
        case .unanswered(.busy): "busy"
        case .unanswered(.expired): "expired"
        case .unanswered(let other): "\(other)"
        }
    }
}

/// One random run: a random policy, Alice's row first, then random inputs, then every timer fires.
struct Simulation {
    private var rng: SplitMix64
    private var machine: CallStateMachine
    private var now = CallInstant.zero
    private var rooms: Set<String> = []
    private var laterRows = 0
    private(set) var checker = InvariantChecker()
    private(set) var trace: [TraceEntry] = []

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        machine = CallStateMachine(policy: Self.randomPolicy(&rng), doNotDisturb: rng.chance(percent: 10))
    }

    mutating func run() {
        if rng.chance(percent: 85) { step(.backendUp) }
        step(firstRow())
        for _ in 0..<(5 + rng.below(40)) {
            now = now + (rng.chance(percent: 10) ? rng.duration(upTo: 60) : rng.duration(upTo: 3))
            step(randomEvent())
        }
        for _ in 0..<50 {
            guard let next = checker.liveTimers.min(by: { ($0.value, $0.key.generation) < ($1.value, $1.key.generation) })
            else { break }
            now = max(now, next.value)
            step(.timerFired(next.key))
        }
        checker.finish(machine: machine, rooms: rooms)
    }

    private mutating func step(_ event: CallEvent) {
        if case .incomingCall(let call, _) = event { rooms.insert(call.sessionID) }
        let output = machine.handle(event, at: now)
        trace.append(TraceEntry(instant: now, event: event, output: output))
        checker.observe(event, output: output, machine: machine)
    }

    private mutating func firstRow() -> CallEvent {
        let caller = rng.pick([("alice", "Alice"), ("bob", "Bob")])
        let call = IncomingCall(
            rowID: "r1", sessionID: "s1", callerID: caller.0, callerTitle: caller.1,
            expiresAt: now + (rng.chance(percent: 10) ? .zero : rng.duration(upTo: 80)),
            wantsVideo: rng.chance(percent: 80), wantsAudio: rng.chance(percent: 90))
        return .incomingCall(call, localTime: Self.randomTime(&rng))
    }

    private mutating func randomEvent() -> CallEvent {
        let peers = ["p1", "p1", "p1", "p2", "v1", "v2"]
        switch rng.below(100) {
        case 0..<8: return .button(.acceptPress)
        case 8..<11: return .button(.acceptLongPress)
        case 11..<17: return .button(.hangupPress)
        case 17..<18: return .button(.callPress)
        case 18..<26: return .signal(sessionID: "s1", .peerJoined(peer: rng.pick(peers)))
        case 26..<30: return .signal(sessionID: "s1", .viewerJoinRequest(peer: rng.pick(["v1", "v2", "v3"])))
        case 30..<33: return .signal(sessionID: "s1", .peerLeft(peer: rng.pick(peers)))
        case 33..<36:
            return .signal(sessionID: "s1", rng.pick([.offer(from: "p1"), .answer(from: "p1"), .ringing(from: "p1")]))
        case 36..<41: return .signal(sessionID: "s1", .bye(from: rng.pick(peers), reason: rng.pick(ByeReason.allCases)))
        case 41..<44: return .signal(sessionID: "s1", .doorOpenRequest(from: rng.pick(peers)))
        case 44..<45: return .signal(sessionID: "s1", .sessionError("closed"))
        case 45..<46: return .signal(sessionID: "s9", .bye(from: "p1", reason: .hangup))
        case 46..<55: return .mediaUp(sessionID: rng.pick(["s1", "s1", "s1", "s2"]))
        case 55..<60: return .mediaDown(sessionID: "s1")
        case 60..<63: return .backendDown
        case 63..<66: return .backendUp
        case 66..<67: return .deviceFault(device: "camera")
        case 67..<69: return .deviceRecovered(device: "camera")
        // Rows arrive once each (the intake's guarantee); a media failure with its reason instead.
        case 69..<71: return .mediaFailed(sessionID: "s1", rng.pick([.iceFailed, .dtlsFailed]))
        case 71..<74: return secondRow()
        case 74..<90:
            let live = checker.liveTimers.sorted { $0.key.generation < $1.key.generation }
            guard !live.isEmpty else { return .button(.acceptPress) }
            let (timer, deadline) = rng.pick(live)
            now = max(now, deadline)
            return .timerFired(timer)
        default:
            let retired = checker.retiredTimers
            return retired.isEmpty ? .mediaUp(sessionID: "s1") : .timerFired(rng.pick(retired))
        }
    }

    /// Another caller's row, each time a new one (the intake delivers every row once).
    private mutating func secondRow() -> CallEvent {
        laterRows += 1
        let call = IncomingCall(
            rowID: "r\(laterRows + 1)", sessionID: "s\(laterRows + 1)", callerID: "carol", callerTitle: "Carol",
            expiresAt: now + rng.duration(upTo: 60), wantsVideo: true, wantsAudio: true)
        return .incomingCall(call, localTime: Self.randomTime(&rng))
    }

    private static func randomPolicy(_ rng: inout SplitMix64) -> CallPolicy {
        let modes: [AnswerMode] = [.auto, .button, .autoAfter(rng.duration(upTo: 40))]
        let quiet: QuietHours? =
            rng.chance(percent: 30)
            ? QuietHours(start: randomTime(&rng), end: randomTime(&rng), answerMode: rng.pick(modes)) : nil
        return CallPolicy(
            answerMode: rng.pick(modes),
            ringTimeout: .seconds(5) + rng.duration(upTo: 35),
            maxDuration: .seconds(20) + rng.duration(upTo: 100),
            mediaTimeout: .seconds(2) + rng.duration(upTo: 20),
            teardownTimeout: .seconds(1) + rng.duration(upTo: 2),
            allowCallers: rng.pick([[], ["alice"], ["Alice", "Carol"], ["bob"]]),
            quietHours: quiet,
            busyBehaviour: rng.pick([.reject, .ignore]),
            maxViewers: rng.below(3),
            allowDoorOpen: rng.chance(percent: 50),
            callTarget: nil)
    }

    private static let everyMinute = (0..<MinuteOfDay.minutesPerDay).compactMap {
        try? MinuteOfDay(minutesSinceMidnight: $0)
    }

    private static func randomTime(_ rng: inout SplitMix64) -> MinuteOfDay {
        rng.pick(everyMinute)
    }
}

/// One step of a simulation, formatted only when a failure is reported.
struct TraceEntry: Equatable, CustomStringConvertible {
    let instant: CallInstant
    let event: CallEvent
    let output: [CallAction]

    var description: String { "\(instant.inSeconds)s \(event) -> \(output)" }
}
