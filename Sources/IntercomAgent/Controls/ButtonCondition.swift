import CallCore
import ControlsCore
import IntercomConfig

/// Whether one button line works as a button: not stuck (held past `gpio.stuck_after`) and not chattering.
/// A line that does not work is no person's: its gestures are dropped by `ButtonInterpreter`, and what it
/// did before it was found out (a long press on a stuck accept) is undone by the call machine.
public struct ButtonCondition: Equatable, Sendable {
    public var isStuck = false
    public var isChattering = false

    public init() {}

    public var works: Bool { !isStuck && !isChattering }

    /// What a gesture from a `role` button tells the call machine, updating the line's condition.
    public mutating func events(for gesture: ButtonGesture, on role: GPIOSettings.ButtonRole) -> [ButtonEvent] {
        let worked = works
        switch gesture {
        case .stuck(let afterLongPress):
            isStuck = true
            return role == .accept ? [.acceptStuck(afterLongPress: afterLongPress)] : []
        case .release where isStuck:
            isStuck = false
        case .chattering:
            isChattering = true
            return role == .accept ? [.acceptChattering] : []
        case .chatterEnded:
            isChattering = false
        case .press, .longPress, .doublePress, .release:
            return ControlsService.event(role, gesture).map { [$0] } ?? []
        }
        return role == .accept && works && !worked ? [.acceptWorks] : []
    }
}
