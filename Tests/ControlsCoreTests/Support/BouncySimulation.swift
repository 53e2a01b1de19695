import IntercomTestSupport
import ControlsCore

/// A person pressing a bouncy button, and a GPIO layer feeding what the kernel reports to a
/// `ButtonInterpreter`: edges (some lost, some with reversed or far-future stamps), then one timer armed
/// for `nextDeadline` that answers with a level sample (or a bare tick).
struct BouncySimulation {
    /// One edge the contact really made.
    struct ContactEdge {
        let edge: ButtonEdge
        /// When it happened.
        let instant: MonotonicInstant
        /// What the kernel stamped on it.
        let stamp: MonotonicInstant
        /// Whether the FIFO lost it.
        let isLost: Bool
    }

    /// One press: where its press bounce and release bounce begin.
    struct HumanPress {
        let pressStart: MonotonicInstant
        let releaseStart: MonotonicInstant
        var holdLength: Duration { releaseStart - pressStart }
    }

    /// What the person does for one press, in steady time on top of `Knobs.minimumSteady`.
    struct PlannedPress {
        /// Quiet time after the previous release burst.
        let gap: Duration
        /// Held time after the press burst.
        let hold: Duration

        /// `count` presses with gaps and holds of 0–100 ms each.
        static func random(count: Int, seed: UInt64) -> [PlannedPress] {
            var random = SplitMix64(seed: seed)
            let range: ClosedRange<Duration> = .zero...(.milliseconds(100))
            return (0..<count).map { _ in
                PlannedPress(gap: random.duration(in: range), hold: random.duration(in: range))
            }
        }
    }

    struct Knobs {
        /// The least quiet time after each bounce burst. A contact steady for less than the debounce is
        /// bounce by definition; when edges are lost, a resynchronization from the sampled level can take
        /// two debounce periods after the burst, so the default allows 2 × 30 ms + 10 ms.
        var minimumSteady: Duration = .milliseconds(70)
        /// Edges per burst: 2 × 0...10 + 1, so up to 21 within `burstSpan`.
        var maximumBounces = 10
        var burstSpan: Duration = .milliseconds(5)
        var lostPercent = 0
        var reversedPercent = 0
        var farFuturePercent = 0
        /// Answer deadlines with `levelSample` (the IO layer reads `gpiod_line_get_value`) or `tick`.
        var samplesLevel = true
    }

    private(set) var edges: [ContactEdge] = []
    private(set) var presses: [HumanPress] = []
    /// Every report with the simulated instant the interpreter returned it.
    private(set) var reports: [(report: GestureReport, returnedAt: MonotonicInstant)] = []
    private(set) var stalled = false
    let knobs: Knobs

    init(seed: UInt64, timing: ButtonTiming, knobs: Knobs = Knobs(), plan: [PlannedPress]) {
        self.knobs = knobs
        var random = SplitMix64(seed: seed)
        var clock = ms(1_000)
        for planned in plan {
            clock = clock + knobs.minimumSteady + planned.gap
            let pressStart = clock
            clock = burst(toward: .rising, from: clock, random: &random)
            clock = clock + knobs.minimumSteady + planned.hold
            let releaseStart = clock
            clock = burst(toward: .falling, from: clock, random: &random)
            presses.append(HumanPress(pressStart: pressStart, releaseStart: releaseStart))
        }
        run(timing: timing)
    }

    /// An odd number of alternating edges starting at `start` and ending at the `final` level; at least
    /// one of them reaches the interpreter (a burst lost whole is invisible to any debouncer). Returns the
    /// instant of its last edge.
    private mutating func burst(
        toward final: ButtonEdge, from start: MonotonicInstant, random: inout SplitMix64
    ) -> MonotonicInstant {
        let count = 2 * Int.random(in: 0...knobs.maximumBounces, using: &random) + 1
        let offsets = [Duration.zero] + (1..<count).map { _ in random.duration(in: .zero...knobs.burstSpan) }.sorted()
        let keeper = Int.random(in: 0..<count, using: &random)
        let opposite: ButtonEdge = final == .rising ? .falling : .rising
        for (index, offset) in offsets.enumerated() {
            let instant = start + offset
            var stamp = instant
            if random.chance(percent: knobs.reversedPercent) {
                stamp = instant + .milliseconds(-Int64.random(in: 1...500, using: &random))
            } else if random.chance(percent: knobs.farFuturePercent) {
                stamp = instant + .seconds(Int64.random(in: 3_600...1_600_000_000, using: &random))
            }
            let isLost = index != keeper && random.chance(percent: knobs.lostPercent)
            edges.append(ContactEdge(edge: index % 2 == 0 ? final : opposite, instant: instant, stamp: stamp, isLost: isLost))
        }
        return start + offsets[offsets.count - 1]
    }

    /// Plays the edges and the interpreter's timer in time order; a deadline due at the same instant as an
    /// edge fires first, seeing the level from before that edge.
    private mutating func run(timing: ButtonTiming) {
        var interpreter = ButtonInterpreter(timing: timing, isActive: false, at: .zero)
        var level = false
        var now = MonotonicInstant.zero
        var next = 0
        var steps = 0
        while steps < 20 * edges.count + 10_000 {
            steps += 1
            let deadline = interpreter.nextDeadline.map { max($0, now) }
            if let deadline, next == edges.count || deadline <= edges[next].instant {
                now = deadline
                let found = knobs.samplesLevel ? interpreter.levelSample(isActive: level, at: now) : interpreter.tick(at: now)
                reports += found.map { ($0, now) }
            } else if next < edges.count {
                let contact = edges[next]
                next += 1
                now = contact.instant
                level = contact.edge == .rising
                if !contact.isLost {
                    let found = interpreter.edge(contact.edge, at: contact.stamp, receivedAt: contact.instant)
                    reports += found.map { ($0, now) }
                }
            } else {
                return
            }
        }
        stalled = true
    }

    /// The gestures, in order.
    var gestures: [ButtonGesture] { reports.map(\.report.gesture) }

    /// The human press during which `instant` falls, counting from its press burst up to the next press
    /// burst, and whether the button was still held (before the release burst) then.
    func press(around instant: MonotonicInstant) -> (index: Int, whileHeld: Bool)? {
        guard let index = presses.lastIndex(where: { $0.pressStart <= instant }) else { return nil }
        return (index, instant < presses[index].releaseStart)
    }
}
