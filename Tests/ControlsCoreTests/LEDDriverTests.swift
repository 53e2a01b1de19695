import ControlsCore
import Testing

@Suite("LED patterns")
struct LEDDriverTests {
    /// A sample instant (ms after the phase start), the level there, and the next change (ms after the
    /// phase start, `nil` for never).
    typealias Sample = (at: Int64, isOn: Bool, nextChange: Int64?)

    static let phaseStart = ms(7_000)

    static let expectations: [(BlinkPattern, [Sample])] = [
        (.off, [(0, false, nil), (123_456, false, nil)]),
        (.dnd, [(0, false, nil), (10_000, false, nil)]),
        (.on, [(0, true, nil), (123_456, true, nil)]),
        (.inCall, [(0, true, nil), (99_999, true, nil)]),
        (.idle, [(0, true, 100), (99, true, 100), (100, false, 5_000), (4_999, false, 5_000), (5_000, true, 5_100), (12_345, false, 15_000)]),
        (.ringing, [(0, true, 125), (124, true, 125), (125, false, 250), (250, true, 375), (1_000, true, 1_125), (1_130, false, 1_250)]),
        (.connecting, [(0, true, 250), (250, false, 500), (499, false, 500), (500, true, 750), (10_300, false, 10_500)]),
        (.offline, [(0, true, 1_000), (999, true, 1_000), (1_000, false, 2_000), (2_000, true, 3_000), (3_500, false, 4_000)]),
        (.fault, [
            (0, true, 100), (100, false, 300), (299, false, 300), (300, true, 400), (400, false, 2_000),
            (1_999, false, 2_000), (2_000, true, 2_100), (2_350, true, 2_400), (2_400, false, 4_000),
        ]),
    ]

    @Test(arguments: expectations.map(\.0))
    func levelsAndNextChangesMatchTheDocumentedTimings(pattern: BlinkPattern) throws {
        let samples = try #require(Self.expectations.first { $0.0 == pattern }?.1)
        let driver = LEDDriver(pattern: pattern, at: Self.phaseStart)
        for sample in samples {
            let output = driver.output(at: Self.phaseStart + .milliseconds(sample.at))
            #expect(output.isOn == sample.isOn, "\(pattern) at \(sample.at) ms")
            #expect(output.nextChange == sample.nextChange.map { Self.phaseStart + .milliseconds($0) }, "\(pattern) at \(sample.at) ms")
        }
    }

    @Test func everyPatternHasExpectations() {
        #expect(Set(Self.expectations.map(\.0)) == Set(BlinkPattern.allCases))
    }

    @Test func aChangeIsExactToTheNanosecond() {
        let driver = LEDDriver(pattern: .ringing, at: .zero)
        #expect(driver.output(at: ms(125).justBefore) == LEDOutput(isOn: true, nextChange: ms(125)))
        #expect(driver.output(at: ms(125)) == LEDOutput(isOn: false, nextChange: ms(250)))
    }

    /// Driving each LED with one timer, as the GPIO layer does, for 10 s: blinks and lit time per pattern.
    @Test(arguments: [
        (BlinkPattern.idle, 2, 200), (.ringing, 40, 5_000), (.connecting, 20, 5_000), (.offline, 5, 5_000), (.fault, 10, 1_000),
    ])
    func oneTimerDrivesTheDocumentedRate(pattern: BlinkPattern, blinks: Int, litMilliseconds: Int64) {
        let driver = LEDDriver(pattern: pattern, at: ms(500))
        let end = ms(10_500)
        var instant = ms(500)
        var turnOns = 0
        var lit = Duration.zero
        var wasOn = false
        while instant < end {
            let output = driver.output(at: instant)
            guard let next = output.nextChange, next > instant else {
                Issue.record("\(pattern) stopped changing at \(instant)")
                return
            }
            #expect(output.isOn != wasOn || instant == ms(500), "\(pattern) did not change at \(instant)")
            if output.isOn { turnOns += 1; lit += min(next, end) - instant }
            wasOn = output.isOn
            instant = next
        }
        #expect(turnOns == blinks)
        #expect(lit == .milliseconds(litMilliseconds))
    }

    @Test func switchingPatternsRestartsThePhase() {
        var driver = LEDDriver(pattern: .idle, at: .zero)
        #expect(driver.output(at: ms(3_000)).isOn == false)
        let changed = driver.show(.ringing, at: ms(3_000))
        #expect(changed)
        #expect(driver.phaseStart == ms(3_000))
        #expect(driver.output(at: ms(3_000)) == LEDOutput(isOn: true, nextChange: ms(3_125)))
    }

    @Test func showingTheSamePatternKeepsThePhase() {
        var driver = LEDDriver(pattern: .ringing, at: ms(3_000))
        let changed = driver.show(.ringing, at: ms(3_100))
        #expect(changed == false)
        #expect(driver.phaseStart == ms(3_000))
        #expect(driver.output(at: ms(3_130)) == LEDOutput(isOn: false, nextChange: ms(3_250)))
    }

    @Test func instantsBeforeThePhaseStartCountAsTheStart() {
        var driver = LEDDriver(pattern: .offline, at: ms(5_000))
        #expect(driver.output(at: ms(1_000)) == LEDOutput(isOn: true, nextChange: ms(6_000)))
        driver.show(.connecting, at: ms(4_000))
        #expect(driver.phaseStart == ms(5_000))
    }
}
