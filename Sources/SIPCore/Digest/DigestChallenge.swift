/// A `WWW-Authenticate` or `Proxy-Authenticate` Digest challenge (RFC 7616 §3.3, RFC 3261 §22.4).
public struct DigestChallenge: Hashable, Sendable {
    public var realm: String
    public var nonce: String
    public var opaque: String?
    public var algorithm: DigestAlgorithm
    /// The qop options offered; empty for an RFC 2069-style challenge.
    public var qopOptions: [String]
    /// The previous nonce was valid but expired: retry with the new one, same credentials (RFC 7616 §3.3).
    public var stale: Bool

    public init(
        realm: String, nonce: String, opaque: String? = nil, algorithm: DigestAlgorithm = .md5,
        qopOptions: [String] = [], stale: Bool = false
    ) {
        self.realm = realm
        self.nonce = nonce
        self.opaque = opaque
        self.algorithm = algorithm
        self.qopOptions = qopOptions
        self.stale = stale
    }

    /// Parses the header value `Digest realm="…", nonce="…", …`.
    public init(parsing value: String) throws(SIPError) {
        let text = Substring(value).trimmingLWS
        guard let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }),
            text[..<space].lowercased() == "digest"
        else { throw .malformedChallenge }
        let parameters = try AuthParameters.parse(text[space...])
        guard let realm = parameters["realm"], let nonce = parameters["nonce"] else { throw .malformedChallenge }
        self.realm = realm
        self.nonce = nonce
        opaque = parameters["opaque"]
        algorithm = try DigestAlgorithm(parsing: parameters["algorithm"])
        qopOptions = (parameters["qop"] ?? "").split(separator: ",").map { String($0.trimmingLWS).lowercased() }
            .filter { !$0.isEmpty }
        stale = parameters["stale"]?.lowercased() == "true"
    }

    /// The first Digest challenge this client can answer, preferring SHA-256 over MD5 (RFC 7616 §3.7: a
    /// server lists its preferred algorithm first, a client uses the first it supports).
    public static func preferred(in message: SIPMessage) -> (DigestChallenge, proxy: Bool)? {
        for (name, proxy) in [(SIPHeaderName.wwwAuthenticate, false), (SIPHeaderName.proxyAuthenticate, true)] {
            let parsed = message.values(name).compactMap { try? DigestChallenge(parsing: $0) }
            if let first = parsed.first { return (first, proxy) }
        }
        return nil
    }
}
