import CallCore
import ControlsCore
import IntercomAgent
import IntercomConfig
import IntercomTestSupport
import Testing

/// What each button gesture means to the call machine (SYSTEM.md §7).
@Suite struct ControlsMappingTests {
    @Test(arguments: [
        (GPIOSettings.ButtonRole.accept, ButtonGesture.press, ButtonEvent?.some(.acceptPress)),
        (.accept, .longPress, .acceptLongPress),
        (.accept, .release, nil),
        (.accept, .doublePress, .replyPress),
        (.hangup, .doublePress, .replyPress),
        (.hangup, .press, .hangupPress),
        (.hangup, .longPress, nil),
        (.call, .press, .callPress),
        (.call, .release, nil),
    ] as [(GPIOSettings.ButtonRole, ButtonGesture, ButtonEvent?)])
    func gesturesMapToCallEvents(role: GPIOSettings.ButtonRole, gesture: ButtonGesture, expected: ButtonEvent?) {
        #expect(ControlsService.event(role, gesture) == expected)
    }

    /// `reply_on_double_press` makes the line report double presses (which then send the reply); without it
    /// a button reports its press at once and never a double press.
    @Test func replyOnDoublePressTurnsOnDoublePressesForThatButtonOnly() throws {
        let configuration = try TestDeviceConfiguration.load(serverURL: "http://127.0.0.1:1/parse", """
            [gpio.buttons.hangup]
            line = "HANGUP"
            reply_on_double_press = true
            [gpio.buttons.accept]
            line = "ACCEPT"
            """)
        let gpio = try #require(configuration.gpio)
        let hangup = try #require(gpio.buttons[.hangup])
        let accept = try #require(gpio.buttons[.accept])
        #expect(GPIOLineRequests.timing(hangup, role: .hangup, stuckAfter: gpio.stuckAfter).reportsDoublePress)
        #expect(!GPIOLineRequests.timing(accept, role: .accept, stuckAfter: gpio.stuckAfter).reportsDoublePress)
    }

    @Test func replyOnDoublePressMustBeABool() {
        #expect(throws: (any Error).self) {
            try TestDeviceConfiguration.load(serverURL: "http://127.0.0.1:1/parse", """
                [gpio.buttons.hangup]
                line = "HANGUP"
                reply_on_double_press = "yes"
                """)
        }
    }
}
