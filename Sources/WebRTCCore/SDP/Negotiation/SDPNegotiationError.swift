/// Why an offer cannot be answered, or an offer/answer pair cannot be turned into session parameters.
public enum SDPNegotiationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The m= section at this index has no `a=mid` (RFC 8843 requires one with BUNDLE).
    case missingMid(index: Int)
    /// More than one active m= section and no `a=group:BUNDLE`: we run a single ICE component.
    case bundleRequired
    case missingICECredentials(mid: String)
    case missingFingerprint(mid: String)
    /// `a=setup:holdconn`, or both sides claiming the same DTLS role (RFC 8842 §5).
    case incompatibleSetup(local: DTLSSetupRole?, remote: DTLSSetupRole?)
    /// No m= section carries Opus or VP8 over UDP/TLS/RTP/SAVPF with rtcp-mux.
    case noCompatibleMedia

    public var description: String {
        switch self {
        case let .missingMid(index): "m= section \(index) has no a=mid"
        case .bundleRequired: "more than one active m= section but no a=group:BUNDLE"
        case let .missingICECredentials(mid): "mid \(mid) has no a=ice-ufrag/a=ice-pwd"
        case let .missingFingerprint(mid): "mid \(mid) has no a=fingerprint"
        case let .incompatibleSetup(local, remote):
            "DTLS roles cannot be resolved (local \(local?.rawValue ?? "none"), remote \(remote?.rawValue ?? "none"))"
        case .noCompatibleMedia: "no m= section offers Opus or VP8 over UDP/TLS/RTP/SAVPF with rtcp-mux"
        }
    }
}
