import COpenSSLShims
import COpenSSL

/// Builds the `SSL_CTX` of a DTLS-SRTP endpoint (Janus dtls.c): `DTLS_method`, our certificate, a peer
/// certificate required but self-signed accepted (the SDP fingerprint is checked after the handshake),
/// use_srtp with `profiles` in preference order, no session tickets, ECDHE on P-256 only, and DTLS 1.2 as
/// the oldest version (RFC 8827 §6.5: WebRTC endpoints must not negotiate DTLS 1.0).
enum DTLSContext {
    static func make(certificate: DTLSCertificate, profiles: [SRTPProfile]) throws(DTLSError) -> OpaquePointer {
        ERR_clear_error()
        guard !profiles.isEmpty else { throw .setupFailed(call: "SSL_CTX_set_tlsext_use_srtp", reason: "no SRTP profile") }
        guard let context = SSL_CTX_new(DTLS_method()) else {
            throw .setupFailed(call: "SSL_CTX_new", reason: OpenSSLErrorQueue.drain())
        }
        func check(_ ok: Bool, _ call: String) throws(DTLSError) {
            if !ok {
                SSL_CTX_free(context)
                throw .setupFailed(call: call, reason: OpenSSLErrorQueue.drain())
            }
        }
        try check(SSL_CTX_use_certificate(context, certificate.certificate) == 1, "SSL_CTX_use_certificate")
        try check(SSL_CTX_use_PrivateKey(context, certificate.privateKey) == 1, "SSL_CTX_use_PrivateKey")
        try check(SSL_CTX_check_private_key(context) == 1, "SSL_CTX_check_private_key")
        // Accept any chain: a WebRTC peer is authenticated by its fingerprint, not by a CA.
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT) { _, _ in 1 }
        // Unlike almost every OpenSSL call, this one returns 0 on success.
        let names = profiles.map(\.openSSLName).joined(separator: ":")
        try check(SSL_CTX_set_tlsext_use_srtp(context, names) == 0, "SSL_CTX_set_tlsext_use_srtp")
        SSL_CTX_set_options(context, CIntercomShims_SSL_OP_NO_TICKET())
        try check(CIntercomShims_SSL_CTX_set_min_proto_version(context, Int(DTLS1_2_VERSION)) == 1,
                  "SSL_CTX_set_min_proto_version")
        try check(CIntercomShims_SSL_CTX_set1_groups_list(context, "P-256") == 1, "SSL_CTX_set1_groups_list")
        return context
    }
}
