/// Why an ICE agent operation failed. `call` names the libnice (or GLib/pthread) function that refused.
public enum ICEError: Error, Equatable, Sendable {
    /// A libnice, GLib or pthread call returned failure (NULL, FALSE, 0 or a negative count).
    case callFailed(call: String, detail: String)
    /// The candidate line is not RFC 8839 §5.1 `candidate-attribute` grammar. `problem` names the field
    /// (libnice is lenient: it reads a non-numeric priority as 0), or is the libnice call that refused it
    /// (`nice_agent_parse_remote_candidate_sdp`, which also rejects mDNS `.local` addresses in 0.1.21).
    case malformedCandidate(line: String, problem: String)
    /// The candidate is for a component other than 1: with rtcp-mux and BUNDLE there is only one.
    case unsupportedComponent(line: String, componentID: UInt32)
    /// `nice_agent_send` refused the datagram (no selected pair yet, or the socket failed).
    case sendFailed(call: String, length: Int)
    /// The agent was closed (or its GLib thread has stopped); nothing more can be done with it.
    case closed
}
