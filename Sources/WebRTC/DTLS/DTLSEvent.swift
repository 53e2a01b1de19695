/// What a `DTLSEndpoint` reports to its owner, drained with `pollEvent()`.
public enum DTLSEvent: Equatable, Sendable {
    /// The handshake finished, the peer's fingerprint matched and SRTP keys were exported.
    case connected(SRTPKeyMaterial)
    /// The endpoint is dead; the call should hang up.
    case failed(DTLSError)
    /// The peer sent close_notify.
    case closed
    /// Decrypted application data (WebRTC data channels would use it; media never does).
    case applicationData([UInt8])
}
