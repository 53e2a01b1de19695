import ControlsCore
import Testing

@Suite("Button timing")
struct ButtonTimingTests {
    @Test func theDefaultsAreThoseOfTheDesign() throws {
        let defaults = try ButtonTiming()
        #expect(defaults.debounce == .milliseconds(30))
        #expect(defaults.longPressThreshold == .seconds(2))
        #expect(defaults.doublePressWindow == .milliseconds(400))
        #expect(!defaults.reportsLongPress && !defaults.reportsDoublePress)
        #expect(ButtonTiming.plain == defaults)
        #expect(ButtonTiming.withLongPress == (try ButtonTiming(reportsLongPress: true)))
        #expect(timing(longPress: true, doublePress: true).reportsDoublePress)
    }

    @Test func theBoundsAreInclusive() throws {
        #expect(try ButtonTiming(debounce: .zero).debounce == .zero)
        #expect(try ButtonTiming(debounce: .milliseconds(500)).debounce == .milliseconds(500))
        #expect(try ButtonTiming(longPressThreshold: .milliseconds(200)).longPressThreshold == .milliseconds(200))
        #expect(try ButtonTiming(doublePressWindow: .seconds(2)).doublePressWindow == .seconds(2))
    }

    @Test func aValueOutOfRangeThrowsNamingTheSetting() {
        #expect(throws: ControlsConfigurationError(
            setting: "debounce", value: .milliseconds(-1), allowed: ButtonTiming.debounceRange)
        ) {
            try ButtonTiming(debounce: .milliseconds(-1))
        }
        #expect(throws: ControlsConfigurationError(
            setting: "longPressThreshold", value: .seconds(11), allowed: ButtonTiming.longPressRange)
        ) {
            try ButtonTiming(longPressThreshold: .seconds(11))
        }
        #expect(throws: ControlsConfigurationError(
            setting: "doublePressWindow", value: .zero, allowed: ButtonTiming.doublePressRange)
        ) {
            try ButtonTiming(doublePressWindow: .zero)
        }
        do {
            _ = try ButtonTiming(debounce: .seconds(1))
            Issue.record("a 1 s debounce was accepted")
        } catch {
            #expect(error.description == "debounce is 1.0 seconds, but must be between 0.0 seconds and 0.5 seconds")
        }
    }
}
