import ControlsCore
import Testing

@Suite("Status and ringing LEDs")
struct IndicatorPanelTests {
    @Test func theMappingIsTheDocumentedTable() {
        let table: [BlinkPattern: (status: BlinkPattern, ringing: BlinkPattern)] = [
            .off: (.off, .off), .on: (.on, .on), .idle: (.idle, .off), .ringing: (.ringing, .ringing),
            .connecting: (.connecting, .on), .inCall: (.inCall, .on), .offline: (.offline, .off),
            .fault: (.fault, .off), .dnd: (.dnd, .off),
        ]
        #expect(table.count == BlinkPattern.allCases.count)
        for (state, expected) in table {
            #expect(IndicatorPanel.patterns(for: state) == IndicatorPatterns(status: expected.status, ringing: expected.ringing), "\(state)")
        }
    }

    @Test func whileRingingBothLEDsFlashInPhase() {
        var panel = IndicatorPanel(showing: .idle, at: .zero)
        panel.show(.ringing, at: ms(2_000))
        for offset: Int64 in [0, 60, 130, 260, 380] {
            let output = panel.output(at: ms(2_000 + offset))
            #expect(output.status == output.ringing)
        }
        #expect(panel.output(at: ms(2_130)).status == LEDOutput(isOn: false, nextChange: ms(2_250)))
    }

    @Test func theNextChangeIsTheEarlierOfTheTwoLEDs() {
        var panel = IndicatorPanel(showing: .offline, at: .zero)
        #expect(panel.output(at: ms(300)).nextChange == ms(1_000))
        panel.show(.inCall, at: ms(1_500))
        #expect(panel.output(at: ms(1_600)).nextChange == nil)
        panel.show(.connecting, at: ms(1_700))
        // The ringing LED stays on (no change, no restart); the status LED blinks from 1.7 s.
        #expect(panel.output(at: ms(1_800)) == IndicatorOutput(
            status: LEDOutput(isOn: true, nextChange: ms(1_950)), ringing: LEDOutput(isOn: true, nextChange: nil)))
        #expect(panel.output(at: ms(1_800)).nextChange == ms(1_950))
    }

    @Test func anLEDWhosePatternStaysKeepsItsPhase() {
        var panel = IndicatorPanel(showing: .connecting, at: .zero)
        panel.show(.inCall, at: ms(900))
        #expect(panel.ringing.phaseStart == .zero)
        #expect(panel.status.phaseStart == ms(900))
    }
}

extension IndicatorPanelTests {
    @Test func aFaultyButtonDoubleBlinksTheRingingLEDOnlyWhereItWouldBeOff() {
        var panel = IndicatorPanel(showing: .idle, at: .zero)
        panel.flagButtonFault(true, at: ms(1_000))
        #expect(panel.ringing.pattern == .fault && panel.status.pattern == .idle)
        #expect(panel.output(at: ms(1_050)).ringing.isOn, "the double blink starts at once")
        panel.show(.ringing, at: ms(2_000))
        #expect(panel.ringing.pattern == .ringing, "a call wanting you wins")
        panel.show(.inCall, at: ms(3_000))
        #expect(panel.ringing.pattern == .on)
        panel.show(.idle, at: ms(4_000))
        #expect(panel.ringing.pattern == .fault)
        panel.flagButtonFault(false, at: ms(5_000))
        #expect(panel.ringing.pattern == .off && panel.status.pattern == .idle)
    }

    @Test func theFlagIsRememberedAcrossStates() {
        for state in BlinkPattern.allCases {
            let plain = IndicatorPanel.patterns(for: state)
            let flagged = IndicatorPanel.patterns(for: state, buttonFault: true)
            #expect(flagged.status == plain.status)
            #expect(flagged.ringing == (plain.ringing == .off ? .fault : plain.ringing), "\(state)")
        }
    }
}
