import COpenSSLShims
import COpenSSL
import Foundation

/// The agent's DTLS identity: an ECDSA P-256 key and a self-signed X.509 certificate made at start.
/// Validity follows libwebrtc: not before now − 1 day (tolerates slightly wrong clocks), not after now + 30 days.
///
/// `@unchecked Sendable`: the key and certificate are never mutated after `init`, and OpenSSL only
/// reads them (with its own reference counts) when an `SSL_CTX` adopts them.
public final class DTLSCertificate: @unchecked Sendable {
    /// How far back `notBefore` lies, and how long after creation the certificate stays valid.
    public static let backdating: Duration = .seconds(24 * 60 * 60)
    public static let lifetime: Duration = .seconds(30 * 24 * 60 * 60)

    let privateKey: OpaquePointer
    let certificate: OpaquePointer
    /// SHA-256 fingerprint for SDP `a=fingerprint:sha-256`.
    public let fingerprint: String
    public let notBefore: Date
    public let notAfter: Date

    /// Generates a new key and certificate. `now` is the wall-clock creation time.
    public init(commonName: String = "intercom", now: Date = Date()) throws(DTLSError) {
        ERR_clear_error()
        guard let key = CIntercomShims_EVP_EC_gen("P-256") else {
            throw .certificateGenerationFailed(call: "EVP_EC_gen", reason: OpenSSLErrorQueue.drain())
        }
        guard let x509 = X509_new() else {
            EVP_PKEY_free(key)
            throw .certificateGenerationFailed(call: "X509_new", reason: OpenSSLErrorQueue.drain())
        }
        let created = time_t(now.timeIntervalSince1970.rounded(.down))
        do {
            try Self.fill(x509, key: key, commonName: commonName, created: created)
        } catch {
            X509_free(x509)
            EVP_PKEY_free(key)
            throw error
        }
        guard let fingerprint = DTLSFingerprint.sha256(of: x509) else {
            X509_free(x509)
            EVP_PKEY_free(key)
            throw .certificateGenerationFailed(call: "X509_digest", reason: OpenSSLErrorQueue.drain())
        }
        privateKey = key
        certificate = x509
        self.fingerprint = fingerprint
        notBefore = Date(timeIntervalSince1970: TimeInterval(created) - TimeInterval(Self.backdating.components.seconds))
        notAfter = Date(timeIntervalSince1970: TimeInterval(created) + TimeInterval(Self.lifetime.components.seconds))
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(privateKey)
    }

    /// The certificate's own notBefore/notAfter as OpenSSL stores them, in seconds since 1970
    /// (read back with `ASN1_TIME_to_tm`, so tests check what the peer will see, not our bookkeeping).
    public func encodedValidity() -> (notBefore: Int, notAfter: Int)? {
        guard let before = Self.seconds(X509_get0_notBefore(certificate)),
              let after = Self.seconds(X509_get0_notAfter(certificate)) else { return nil }
        return (before, after)
    }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int? {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return timegm(&parts)
    }

    private static func fill(_ x509: OpaquePointer, key: OpaquePointer, commonName: String, created: time_t) throws(DTLSError) {
        func check(_ ok: Bool, _ call: String) throws(DTLSError) {
            if !ok { throw .certificateGenerationFailed(call: call, reason: OpenSSLErrorQueue.drain()) }
        }
        try check(X509_set_version(x509, 2) == 1, "X509_set_version")  // 2 means X.509 v3
        try check(ASN1_INTEGER_set_uint64(X509_get_serialNumber(x509), UInt64.random(in: 1 ... UInt64(Int64.max))) == 1,
                  "ASN1_INTEGER_set_uint64")
        let backdating = -Int(Self.backdating.components.seconds)
        var base = created
        try check(X509_time_adj_ex(X509_getm_notBefore(x509), 0, backdating, &base) != nil, "X509_time_adj_ex")
        try check(X509_time_adj_ex(X509_getm_notAfter(x509), 0, Int(Self.lifetime.components.seconds), &base) != nil,
                  "X509_time_adj_ex")
        try check(X509_set_pubkey(x509, key) == 1, "X509_set_pubkey")
        let name = X509_get_subject_name(x509)
        let added = X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0)
        try check(added == 1, "X509_NAME_add_entry_by_txt")
        try check(X509_set_issuer_name(x509, name) == 1, "X509_set_issuer_name")
        try check(X509_sign(x509, key, EVP_sha256()) > 0, "X509_sign")
    }
}
