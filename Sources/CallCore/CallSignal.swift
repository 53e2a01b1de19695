/// A signaling message the machine asks the IO layer to send as `{"op":"signal","data":…}` (SYSTEM.md §4).
/// Offers, answers and candidates are produced by the media session, not by the machine.
public enum CallSignal: Equatable, Sendable {
    /// `{"type":"ringing"}`: the device is alerting.
    case ringing
    /// `{"type":"bye","reason":…}`: the device refuses or ends the call.
    case bye(ByeReason)
    /// `{"type":"text","id":…,"text":…}`: a text message (a canned reply) to the other party (issue #22).
    case text(id: String, text: String)
}
