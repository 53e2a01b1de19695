/// Something that happened in a call's signaling room (SYSTEM.md §4), as the IO layer parsed it.
///
/// Peers are named by their room `peerId`. SDP (`offer`/`answer` bodies) and ICE candidates never pass
/// through the machine: the IO layer hands them to the media session of the same room and only tells the
/// machine that an offer or answer arrived.
public enum RemoteSignal: Equatable, Sendable {
    /// A full participant is in the room (also reported for peers listed in our own `joined` frame).
    case peerJoined(peer: String)
    /// A view-only peer (view-only token) wants to watch.
    case viewerJoinRequest(peer: String)
    /// A participant or viewer left the room.
    case peerLeft(peer: String)
    /// A participant's socket went away without leaving (ping timeout, a network error, or replaced by its
    /// own reconnect): it may come back under a new `peerId` (`peerReturned`) while the media keeps flowing.
    case peerDropped(peer: String)
    /// A participant that dropped, or that our own reconnect lost sight of (a room moves when the backend
    /// instance holding it dies), joined again as `new`: the same user with the same role.
    case peerReturned(old: String, new: String)
    /// The callee of an outgoing call is ringing.
    case ringing(from: String)
    /// An SDP offer arrived; on an outgoing call it means the callee answered.
    case offer(from: String)
    /// An SDP answer arrived (handled by the media session; no state change).
    case answer(from: String)
    /// The peer ended or refused the call.
    case bye(from: String, reason: ByeReason)
    /// The peer asks the device to pulse its door relay (`{"type":"door","action":"open"}`).
    case doorOpenRequest(from: String)
    /// The room refused us or closed (`{"op":"error",…}`, or the socket failed for good).
    case sessionError(String)
}
