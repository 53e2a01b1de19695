/// Why a DTLS endpoint could not be set up or why its handshake ended without SRTP keys.
/// `call` names the OpenSSL function that failed; `reason` is the drained OpenSSL error queue.
public enum DTLSError: Error, Equatable, Sendable {
    /// Creating the ECDSA key or the self-signed certificate failed.
    case certificateGenerationFailed(call: String, reason: String)
    /// Configuring the `SSL_CTX` or the per-peer `SSL` failed.
    case setupFailed(call: String, reason: String)
    /// `SSL_do_handshake` reported a fatal error (bad message, alert from the peer, too many retransmits).
    case handshakeFailed(reason: String)
    /// `SSL_read` on the established association failed (fatal alert, corrupted state).
    case readFailed(reason: String)
    /// The handshake did not finish within the endpoint's handshake timeout.
    case handshakeTimedOut
    /// The peer's certificate digest differs from the SDP `a=fingerprint` (RFC 8122 §5): hang up.
    case fingerprintMismatch(expected: String, actual: String)
    /// The peer finished the handshake without presenting a certificate.
    case noPeerCertificate
    /// The peer did not negotiate the use_srtp extension (RFC 5764 §4.1.1).
    case noSRTPProfileNegotiated
    /// `SSL_get_selected_srtp_profile` returned a profile this endpoint never offered.
    case unsupportedSRTPProfile(id: UInt)
    /// `SSL_export_keying_material` with the "EXTRACTOR-dtls_srtp" label failed.
    case keyExportFailed(reason: String)
    /// `SSL_write` of application data failed, or the endpoint is not connected.
    case writeFailed(reason: String)
}
