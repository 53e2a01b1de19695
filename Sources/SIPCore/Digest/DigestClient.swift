/// Answers Digest challenges (RFC 7616 §3.4, RFC 2617 §3.2.2, RFC 3261 §22.4). Keeps the nonce-count of the
/// current nonce: it counts up per request under one nonce and restarts at 1 for a new nonce. The cnonce is an
/// input so that answers are reproducible in tests; the IO layer supplies fresh random ones.
public struct DigestClient: Sendable {
    public var credentials: DigestCredentials
    private var currentNonce: String?
    private var nonceCount: UInt32 = 0

    public init(credentials: DigestCredentials) {
        self.credentials = credentials
    }

    /// The `Authorization`/`Proxy-Authorization` header value answering `challenge` for a request.
    public mutating func authorization(
        for challenge: DigestChallenge, method: SIPMethod, uri: String, cnonce: String
    ) throws(SIPError) -> String {
        let useQop = !challenge.qopOptions.isEmpty
        guard !useQop || challenge.qopOptions.contains("auth") else { throw .unsupportedQop }
        if currentNonce != challenge.nonce {
            currentNonce = challenge.nonce
            nonceCount = 0
        }
        nonceCount &+= 1
        let nc = Self.eightHexDigits(nonceCount)
        let response = Self.response(
            challenge: challenge, credentials: credentials, method: method.rawValue, uri: uri,
            qop: useQop ? "auth" : nil, nc: nc, cnonce: cnonce)

        var fields = [
            "username=" + AuthParameters.quote(credentials.username),
            "realm=" + AuthParameters.quote(challenge.realm),
            "nonce=" + AuthParameters.quote(challenge.nonce),
            "uri=" + AuthParameters.quote(uri),
            "response=" + AuthParameters.quote(response),
            "algorithm=" + challenge.algorithm.rawValue,
        ]
        if useQop || challenge.algorithm.isSession { fields.append("cnonce=" + AuthParameters.quote(cnonce)) }
        if useQop { fields += ["qop=auth", "nc=" + nc] }
        if let opaque = challenge.opaque { fields.append("opaque=" + AuthParameters.quote(opaque)) }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// request-digest of RFC 7616 §3.4.1 (and RFC 2617 §3.2.2.1 without qop).
    static func response(
        challenge: DigestChallenge, credentials: DigestCredentials, method: String, uri: String, qop: String?,
        nc: String, cnonce: String
    ) -> String {
        let hash = challenge.algorithm.hash
        var ha1 = hash("\(credentials.username):\(challenge.realm):\(credentials.password)")
        if challenge.algorithm.isSession { ha1 = hash("\(ha1):\(challenge.nonce):\(cnonce)") }
        let ha2 = hash("\(method):\(uri)")
        guard let qop else { return hash("\(ha1):\(challenge.nonce):\(ha2)") }
        return hash("\(ha1):\(challenge.nonce):\(nc):\(cnonce):\(qop):\(ha2)")
    }

    private static func eightHexDigits(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
