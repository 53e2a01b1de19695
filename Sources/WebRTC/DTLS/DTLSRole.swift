/// Which side of the DTLS handshake we play, from the negotiated SDP `a=setup` (RFC 8842 §5.2):
/// a remote `actpass` or `passive` makes us the client (`active`), a remote `active` makes us the server.
public enum DTLSRole: Sendable, Equatable {
    case client
    case server
}
