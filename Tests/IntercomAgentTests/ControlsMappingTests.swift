import CallCore
import ControlsCore
import IntercomAgent
import IntercomConfig
import Testing

/// What each button gesture means to the call machine (SYSTEM.md §7).
@Suite struct ControlsMappingTests {
    @Test(arguments: [
        (GPIOSettings.ButtonRole.accept, ButtonGesture.press, ButtonEvent?.some(.acceptPress)),
        (.accept, .longPress, .acceptLongPress),
        (.accept, .release, nil),
        (.accept, .doublePress, nil),
        (.hangup, .press, .hangupPress),
        (.hangup, .longPress, nil),
        (.call, .press, .callPress),
        (.call, .release, nil),
    ] as [(GPIOSettings.ButtonRole, ButtonGesture, ButtonEvent?)])
    func gesturesMapToCallEvents(role: GPIOSettings.ButtonRole, gesture: ButtonGesture, expected: ButtonEvent?) {
        #expect(ControlsService.event(role, gesture) == expected)
    }
}
