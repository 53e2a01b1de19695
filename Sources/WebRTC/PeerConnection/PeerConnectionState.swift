/// The connection's state as W3C `RTCPeerConnectionState` names it, aggregated from the ICE state and
/// the DTLS phase (W3C webrtc-pc §4.3.3, "update the connection state").
public enum PeerConnectionState: String, Sendable, Equatable, CaseIterable {
    case new
    /// ICE checks or the DTLS handshake are in progress.
    case connecting
    /// ICE has a selected pair and DTLS-SRTP keys exist: media flows.
    case connected
    /// ICE lost connectivity after having had it; it may come back.
    case disconnected
    /// ICE failed, or DTLS failed (including a fingerprint mismatch): hang up.
    case failed
    /// `close()` was called, or the peer sent DTLS close_notify.
    case closed

    /// The aggregate of `ice` and `dtls`: failure anywhere wins, then closure, then loss of connectivity;
    /// `connected` needs both layers up.
    public init(ice: ICEConnectionState, dtls: DTLSPhase) {
        if ice == .failed || dtls == .failed {
            self = .failed
        } else if ice == .closed || dtls == .closed {
            self = .closed
        } else if ice == .disconnected {
            self = .disconnected
        } else if ice.isConnected && dtls == .connected {
            self = .connected
        } else if ice == .new && dtls == .new {
            self = .new
        } else {
            self = .connecting
        }
    }

    /// `failed` and `closed` are final: nothing brings the connection back.
    public var isTerminal: Bool { self == .failed || self == .closed }
}

/// Where the DTLS-SRTP association of a peer connection is.
public enum DTLSPhase: String, Sendable, Equatable {
    /// No remote description yet, or ICE has not connected (client) / nothing received (server).
    case new
    case handshaking
    /// Keys exported, SRTP session created.
    case connected
    case failed
    /// close_notify sent or received.
    case closed
}
