import ControlsCore
import IntercomTestSupport
import Testing

/// 1,000 simulated presses through bounce bursts of up to 21 edges in 5 ms on press and on release, lost
/// edges and misdated stamps (reliability matrix row 25: exactly one press per press, none on release).
@Suite("Bouncy buttons, property tests")
struct ButtonPropertyTests {
    static let pressCount = 1_000

    /// Lost edges and far-future stamps (replaced by the read time) but no early stamps, which shift
    /// confirmations by up to 500 ms and so blur the 2 s and 400 ms boundaries the gesture tests check.
    static let hostileButPunctual = {
        var knobs = hostile
        knobs.reversedPercent = 0
        return knobs
    }()

    /// The GPIO layer as designed: deadlines answered with a level sample; 10% of edges lost, 5% stamped
    /// up to 500 ms early, 2% stamped hours to decades late.
    static let hostile = {
        var knobs = BouncySimulation.Knobs()
        knobs.lostPercent = 10
        knobs.reversedPercent = 5
        knobs.farFuturePercent = 2
        return knobs
    }()

    @Test(arguments: [UInt64(0x5EED_0001), 0x5EED_0002, 0x5EED_0003])
    func exactlyOnePressPerHumanPressWhenEdgesAreLost(seed: UInt64) {
        let plan = BouncySimulation.PlannedPress.random(count: Self.pressCount, seed: seed ^ 0xA5A5)
        let simulation = BouncySimulation(seed: seed, timing: .plain, knobs: Self.hostile, plan: plan)
        Self.expectOnePressAndReleasePerHumanPress(simulation)
        // The generator must reach the corners it claims to, or the checks above prove little.
        #expect(simulation.edges.count(where: \.isLost) > 1_000)
        #expect(simulation.edges.count(where: { $0.stamp < $0.instant }) > 500)
        #expect(simulation.edges.count(where: { $0.stamp > $0.instant }) > 200)
        #expect(Self.longestBurst(in: simulation) >= 20)
    }

    /// Without level samples lost edges cannot be healed, but bounce and misdated stamps must still be:
    /// here the contact is steady for only the debounce plus 1 ms, then 0–100 ms more between actions.
    @Test func exactlyOnePressPerHumanPressWithTicksOnly() {
        var knobs = Self.hostile
        knobs.lostPercent = 0
        knobs.samplesLevel = false
        knobs.minimumSteady = ButtonTiming.plain.debounce + .milliseconds(1)
        let plan = BouncySimulation.PlannedPress.random(count: Self.pressCount, seed: 77)
        let simulation = BouncySimulation(seed: 78, timing: .plain, knobs: knobs, plan: plan)
        Self.expectOnePressAndReleasePerHumanPress(simulation)
    }

    /// The `accept` button: holds well short of 2 s are a `press` reported on release, holds well past
    /// it a `longPress` reported while still held; never both.
    @Test func longPressesAreTellFromPressesThroughBounce() {
        var random = SplitMix64(seed: 0x10_4C)
        let plan = (0..<Self.pressCount).map { _ in
            let isLong = random.chance(percent: 20)
            let hold = isLong
                ? random.duration(in: .milliseconds(2_100)...(.milliseconds(3_000)))
                : random.duration(in: .zero...(.milliseconds(1_800)))
            return BouncySimulation.PlannedPress(gap: random.duration(in: .zero...(.milliseconds(100))), hold: hold)
        }
        let simulation = BouncySimulation(
            seed: 0x10_4D, timing: .withLongPress, knobs: Self.hostileButPunctual, plan: plan)
        #expect(!simulation.stalled)
        let expected = simulation.presses.flatMap { press -> [ButtonGesture] in
            press.holdLength > .seconds(2) ? [.longPress, .release] : [.press, .release]
        }
        expectSame(simulation.gestures, expected)
        #expect(expected.count(where: { $0 == .longPress }) > 100)
        // A long press comes while held; a short press only once the person let go.
        let mistimed = simulation.reports.filter { report, returnedAt in
            report.gesture != .release && simulation.press(around: returnedAt)?.whileHeld != (report.gesture == .longPress)
        }
        #expect(mistimed.isEmpty, "\(mistimed.prefix(5).map { "\($0.report) returned at \($0.returnedAt)" })")
    }

    /// Pairs of quick presses are one `doublePress`; presses far apart are a `press` each.
    @Test func doublePressesAreTellFromSinglePresses() {
        var random = SplitMix64(seed: 0xD0_0B1E)
        var plan: [BouncySimulation.PlannedPress] = []
        var expected: [ButtonGesture] = []
        while plan.count < Self.pressCount {
            // Press starts 140–270 ms apart within a pair, at least 640 ms apart otherwise (each start
            // is confirmed 30–65 ms late, depending on bounce and lost edges).
            let farGap = random.duration(in: .milliseconds(500)...(.milliseconds(600)))
            plan.append(BouncySimulation.PlannedPress(gap: farGap, hold: random.duration(in: .zero...(.milliseconds(60)))))
            if random.chance(percent: 40) {
                plan.append(BouncySimulation.PlannedPress(
                    gap: random.duration(in: .zero...(.milliseconds(60))), hold: random.duration(in: .zero...(.milliseconds(100)))))
                expected += [.doublePress, .release]
            } else {
                expected += [.press, .release]
            }
        }
        let timing = timing(doublePress: true)
        let simulation = BouncySimulation(seed: 0xD0_0B1F, timing: timing, knobs: Self.hostileButPunctual, plan: plan)
        #expect(!simulation.stalled)
        expectSame(simulation.gestures, expected)
        #expect(expected.count(where: { $0 == .doublePress }) > 100)
    }

    /// The level samples are what heal lost edges: answering deadlines with bare ticks, the same hostile
    /// run misses or invents presses.
    @Test func lostEdgesNeedLevelSamples() {
        var knobs = Self.hostile
        knobs.samplesLevel = false
        let plan = BouncySimulation.PlannedPress.random(count: Self.pressCount, seed: 5)
        let simulation = BouncySimulation(seed: 6, timing: .plain, knobs: knobs, plan: plan)
        let expected = Array(repeating: [ButtonGesture.press, .release], count: Self.pressCount).flatMap { $0 }
        #expect(!simulation.stalled)
        #expect(simulation.gestures != expected)
    }

    @Test func theSameSeedReplaysTheSameReports() {
        let plan = BouncySimulation.PlannedPress.random(count: 50, seed: 9)
        let first = BouncySimulation(seed: 10, timing: .plain, knobs: Self.hostile, plan: plan)
        let second = BouncySimulation(seed: 10, timing: .plain, knobs: Self.hostile, plan: plan)
        #expect(first.reports.map(\.report) == second.reports.map(\.report))
        #expect(first.reports.count == 100)
    }

    /// Presses and releases alternate, one pair per human press; each press is reported while that
    /// person is holding the button, each release after they let go and before their next press.
    static func expectOnePressAndReleasePerHumanPress(
        _ simulation: BouncySimulation, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!simulation.stalled, sourceLocation: sourceLocation)
        let expected = Array(repeating: [ButtonGesture.press, .release], count: simulation.presses.count).flatMap { $0 }
        #expect(simulation.gestures.count(where: { $0 == .press }) == simulation.presses.count, sourceLocation: sourceLocation)
        #expect(simulation.gestures.count(where: { $0 == .release }) == simulation.presses.count, sourceLocation: sourceLocation)
        expectSame(simulation.gestures, expected, sourceLocation: sourceLocation)
        var misplaced: [String] = []
        var previousAt = MonotonicInstant.zero
        for (index, (report, returnedAt)) in simulation.reports.enumerated() {
            let place = simulation.press(around: returnedAt)
            let wanted = (index: index / 2, whileHeld: report.gesture == .press)
            // A stamp dated early (but after everything seen so far) is believed, so `at` may precede the
            // press; it never lies in the future, and reports never go back in time.
            let recognizedInTime = report.at <= returnedAt && report.at >= previousAt
            previousAt = report.at
            if place?.index != wanted.index || place?.whileHeld != wanted.whileHeld || !recognizedInTime {
                let press = simulation.presses[wanted.index]
                misplaced.append(
                    "\(report) returned at \(returnedAt.sinceBoot) for press \(wanted.index) "
                        + "(\(press.pressStart.sinceBoot) to \(press.releaseStart.sinceBoot)), found \(String(describing: place))")
            }
        }
        #expect(misplaced.isEmpty, "\(misplaced.prefix(5))", sourceLocation: sourceLocation)
    }

    /// The most edges in one burst.
    static func longestBurst(in simulation: BouncySimulation) -> Int {
        var longest = 0, current = 0
        var previous: MonotonicInstant?
        for edge in simulation.edges {
            if let previous, edge.instant - previous <= .milliseconds(5) { current += 1 } else { current = 1 }
            longest = max(longest, current)
            previous = edge.instant
        }
        return longest
    }
}

/// Expects equal gesture lists, reporting the first difference rather than thousands of elements.
func expectSame(
    _ actual: [ButtonGesture], _ expected: [ButtonGesture], sourceLocation: SourceLocation = #_sourceLocation
) {
    let firstDifference = (0..<min(actual.count, expected.count)).first { actual[$0] != expected[$0] }
        ?? min(actual.count, expected.count)
    let context = { (list: [ButtonGesture]) in list.dropFirst(max(0, firstDifference - 2)).prefix(6).map { "\($0)" } }
    let same = actual == expected
    #expect(
        same,
        "first difference at \(firstDifference) of \(actual.count)/\(expected.count): \(context(actual)) vs \(context(expected))",
        sourceLocation: sourceLocation)
}
