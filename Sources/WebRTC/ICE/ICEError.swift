/// Why an ICE agent operation failed. `call` names the libnice (or GLib/pthread) function that refused.
public enum ICEError: Error, Equatable, Sendable {
    /// A libnice, GLib or pthread call returned failure (NULL, FALSE, 0 or a negative count).
    case callFailed(call: String, detail: String)
    /// `nice_agent_parse_remote_candidate_sdp` rejected the line (RFC 8839 §5.1 grammar, or an mDNS
    /// `.local` address, which libnice 0.1.21 cannot resolve). `line` is the candidate as given.
    case malformedCandidate(line: String, call: String)
    /// The candidate is for a component other than 1: with rtcp-mux and BUNDLE there is only one.
    case unsupportedComponent(line: String, componentID: UInt32)
    /// `nice_agent_send` refused the datagram (no selected pair yet, or the socket failed).
    case sendFailed(call: String, length: Int)
    /// The agent was closed (or its GLib thread has stopped); nothing more can be done with it.
    case closed
}
