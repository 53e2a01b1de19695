/// What the physical controls tell the machine (SYSTEM.md §7): a debounced press of a button, or a change in
/// whether the buttons can be used at all.
///
/// The GPIO layer reports a hold on `accept` as either `acceptPress` (released early) or `acceptLongPress`
/// (held past the threshold), never both.
public enum ButtonEvent: Equatable, Sendable {
    /// Answers a ringing call.
    case acceptPress
    /// Toggles do-not-disturb; switching it on while an incoming call rings declines that call.
    case acceptLongPress
    /// Declines a ringing call, cancels an outgoing one, ends a call in progress.
    case hangupPress
    /// Calls the configured target when idle, unless it called within `CallPolicy.callButtonCooldown`; in
    /// a call, films the device's next camera (issue #22 "Switch camera").
    case callPress
    /// Sends the first canned reply (`CallPolicy.replies`, else `CallPolicy.defaultReply`) into the call in
    /// progress; ignored outside a call.
    case replyPress
    /// The accept button has been held far longer than a person holds it: it cannot answer until it works
    /// again. `afterLongPress`: its `acceptLongPress` was no person's either, and its do-not-disturb toggle
    /// is undone.
    case acceptStuck(afterLongPress: Bool)
    /// The accept line chatters faster than a person presses: it cannot answer until it works again.
    case acceptChattering
    /// The accept button works again (released after sticking, or quiet after chattering).
    case acceptWorks
    /// The button and LED lines could not be claimed (another program holds one): the device shows `fault`
    /// and, in button mode, answers without the button (`answerMode(at:)`); the GPIO layer keeps trying.
    case controlsUnavailable
    /// The lines are claimed (again).
    case controlsAvailable
}
