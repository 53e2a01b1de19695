/// A debounced press of a physical button (SYSTEM.md §7).
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
    /// Calls the configured target when idle.
    case callPress
}
