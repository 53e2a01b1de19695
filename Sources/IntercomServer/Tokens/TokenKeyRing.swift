import JWTKit

/// The HS256 keys for session tokens: the first key signs, every key verifies (rotation: add the new
/// key first, keep the old one until the tokens it signed have expired, then drop it).
public final class TokenKeyRing: Sendable {
    let collection: JWTKeyCollection
    public let signingKid: String
    public let kids: Set<String>

    public init(keys: [TokenKey]) async throws(ServerConfigurationError) {
        guard let first = keys.first else { throw ServerConfigurationError("at least one token key is needed") }
        let collection = JWTKeyCollection()
        for key in keys {
            await collection.add(hmac: HMACKey(from: key.secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.kid))
        }
        self.collection = collection
        signingKid = first.kid
        kids = Set(keys.map(\.kid))
    }

    func sign(_ claims: SessionTokenClaims) async throws -> String {
        try await collection.sign(claims, kid: JWKIdentifier(string: signingKid))
    }
}
