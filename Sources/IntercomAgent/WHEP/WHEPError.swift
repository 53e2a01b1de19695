/// Why a WHEP request or the WHEP endpoint failed (docs/whep.md). Each case maps to one HTTP status in
/// `WHEPEndpoint`; `tokenFile` stops the agent at start, like any unusable secret.
public enum WHEPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bearer token file cannot be read, or holds no token.
    case tokenFile(path: String, reason: String)
    /// The offer is not SDP we can answer (no VP8, no BUNDLE, no sha-256 fingerprint, …): 400.
    case unusableOffer(String)
    /// `call.max_viewers` players are already watching: 503.
    case full(limit: Int)
    /// Our side could not set up the media (ICE agent, DTLS, no candidate gathered): 500.
    case mediaFailed(String)

    public var description: String {
        switch self {
        case let .tokenFile(path, reason): "cannot use the WHEP token file \(path): \(reason)"
        case let .unusableOffer(detail): "unusable offer: \(detail)"
        case let .full(limit): "all \(limit) viewer slots (call.max_viewers) are taken"
        case let .mediaFailed(detail): "media set-up failed: \(detail)"
        }
    }
}
