/// The agent's connectivity as W3C `RTCIceConnectionState` names it, derived from libnice's component
/// state (one component: rtcp-mux plus BUNDLE). The RFC 8445 terms behind each case are in its comment.
public enum ICEConnectionState: String, Sendable, Equatable, CaseIterable {
    /// Gathering candidates or waiting for the peer's credentials and candidates (RFC 8445 §5.1).
    case new
    /// Connectivity checks are running on the checklist (RFC 8445 §6.1.4, §7.2).
    case checking
    /// At least one candidate pair succeeded; media may flow (RFC 8445 §7.2.5.3).
    case connected
    /// A pair was nominated and checks have finished (RFC 8445 §8, "Completed").
    case completed
    /// Every pair failed or consent expired (RFC 8445 §7.2.5.3.3, RFC 7675 §5.1).
    case failed
    /// Connectivity was lost after having been established (libnice went back to "disconnected").
    case disconnected
    /// `ICEAgent.close()` was called.
    case closed

    /// True for `connected` and `completed`: a selected pair exists and datagrams can be sent.
    public var isConnected: Bool { self == .connected || self == .completed }
}
