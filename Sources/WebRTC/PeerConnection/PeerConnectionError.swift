import WebRTCCore

/// Why a `PeerConnection` operation failed or why the connection died. Every case keeps the error of the
/// layer that failed, and that error names the C call or parser step that refused (`ICEError.callFailed`,
/// `DTLSError.setupFailed(call:…)`, `SRTPError.call`, …).
public enum PeerConnectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libnice (through `ICEAgent`) refused; `call` is the `ICEAgent` method we invoked.
    case ice(call: String, ICEError)
    /// Every candidate pair failed, or consent to send expired (RFC 8445 §7.2.5.3.3, RFC 7675 §5.1).
    case iceFailed
    /// OpenSSL DTLS set-up or handshake failed, including a fingerprint mismatch (RFC 8122 §5).
    case dtls(DTLSError)
    /// libsrtp2 refused to create the session or to protect a packet.
    case srtp(SRTPError)
    /// The remote description is not valid SDP.
    case sdp(SDPError)
    /// The descriptions cannot be negotiated (no VP8/Opus, no BUNDLE, no fingerprint, …).
    case negotiation(SDPNegotiationError)
    /// The remote description offers no `sha-256` fingerprint, the only one we verify (RFC 8827 §6.5).
    case unsupportedFingerprint(hashFunctions: [String])
    /// Turning a frame into RTP failed; `call` names the payloader or serializer step.
    case packetization(call: String, detail: String)
    /// `call` is not allowed in the current signaling state (e.g. an answer without an offer).
    case invalidState(call: String, state: String)
    /// Nothing arrived from the connected peer for `seconds` (it left without a word, or the path died).
    case peerSilent(seconds: Int)
    /// The connection was closed.
    case closed

    public var description: String {
        switch self {
        case let .ice(call, error): "ICEAgent.\(call) failed: \(error)"
        case .iceFailed: "ICE failed: no working candidate pair (or consent expired)"
        case let .dtls(error): "DTLS: \(error)"
        case let .srtp(error): "SRTP: \(error)"
        case let .sdp(error): "remote SDP: \(error)"
        case let .negotiation(error): "negotiation: \(error)"
        case let .unsupportedFingerprint(functions):
            "no sha-256 fingerprint in the remote description (got \(functions.joined(separator: ", ")))"
        case let .packetization(call, detail): "\(call) failed: \(detail)"
        case let .invalidState(call, state): "\(call) is not allowed in state \(state)"
        case let .peerSilent(seconds): "nothing received from the peer for \(seconds) s"
        case .closed: "the peer connection is closed"
        }
    }
}
