/// A signaling message between two instances of a fleet, about one socket: the instance holding the socket
/// (the proxy) forwards what the peer sends to the instance that owns the call's room, which sends back what
/// the room has for the peer.
enum SignalingRelayMessage: Codable, Sendable, Equatable {
    /// Proxy → owner: the socket's first frame.
    case join(connection: String, text: String)
    /// Proxy → owner: a later frame.
    case frame(connection: String, text: String)
    /// Proxy → owner: the socket closed.
    case leave(connection: String, reason: String)
    /// Owner → proxy: a frame for the socket.
    case out(connection: String, text: String)
    /// Owner → proxy: close the socket (refused, replaced or dropped).
    case close(connection: String)
}

/// A relay message with the instance that sent it, as it travels on the bus.
struct SignalingEnvelope: Codable, Sendable, Equatable {
    var from: String
    var message: SignalingRelayMessage
}
