import WebRTCCore

/// Between the certificate's fingerprint text (`DTLSCertificate.fingerprint`) and SDP's model of it.
enum FingerprintSelection {
    /// Our `a=fingerprint:sha-256 …` from the `AB:CD:…` text of `DTLSFingerprint.format`.
    static func local(_ certificate: DTLSCertificate) -> SDPFingerprint {
        let digest = certificate.fingerprint.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        return SDPFingerprint(hashFunction: .sha256, digest: digest)
    }

    /// The remote sha-256 fingerprint as `DTLSEndpoint` compares it (RFC 8827 §6.5 requires sha-256 support;
    /// other functions cannot be checked against `X509_digest(sha256)`).
    static func remote(_ fingerprints: [SDPFingerprint]) throws(PeerConnectionError) -> String {
        guard let chosen = fingerprints.first(where: { $0.hashFunction == .sha256 }) else {
            throw .unsupportedFingerprint(hashFunctions: fingerprints.map(\.hashFunction.rawValue))
        }
        return chosen.hexDigest
    }
}
