/// Where a joined peer's frames go: its socket's outbox on this instance, or, on a fleet, the instance its
/// socket is connected to (`SignalingRelay` carries them there over the bus).
enum SignalingSink: Sendable {
    case local(AsyncStream<String>.Continuation)
    case remote(SignalingRemotePeer)

    /// Queues `text`; false when the peer has fallen too far behind and must be dropped.
    func yield(_ text: String) -> Bool {
        switch self {
        case .local(let outbox):
            if case .dropped = outbox.yield(text) { return false }
            return true
        case .remote(let peer):
            return peer.relay.send(.out(connection: peer.connection, text: text), to: peer.instance)
        }
    }

    /// Closes the peer's socket.
    func finish() {
        switch self {
        case .local(let outbox): outbox.finish()
        case .remote(let peer): _ = peer.relay.send(.close(connection: peer.connection), to: peer.instance)
        }
    }
}

/// A peer whose socket is on another instance: that instance's id and its name for the socket.
struct SignalingRemotePeer: Sendable {
    let instance: String
    let connection: String
    let relay: SignalingRelay
}
