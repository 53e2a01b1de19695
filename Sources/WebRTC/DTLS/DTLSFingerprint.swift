import Foundation
import COpenSSL

/// SDP `a=fingerprint:sha-256` values (RFC 8122 §5): the SHA-256 of a DER certificate as colon-separated
/// uppercase hex pairs, e.g. "AB:01:…".
public enum DTLSFingerprint {
    /// Formats digest bytes the way SDP carries them.
    public static func format(_ digest: [UInt8]) -> String {
        let hex: [Character] = Array("0123456789ABCDEF")
        return digest.map { String([hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]]) }.joined(separator: ":")
    }

    /// Uppercase, trimmed form for comparison: SDP hex is case-insensitive (RFC 8122 §5).
    public static func normalized(_ fingerprint: String) -> String {
        fingerprint.trimmingCharacters(in: .whitespaces).uppercased()
    }

    /// `X509_digest(certificate, EVP_sha256())`, formatted; nil if OpenSSL fails.
    static func sha256(of certificate: OpaquePointer) -> String? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 else { return nil }
        return format(Array(digest.prefix(Int(length))))
    }
}
