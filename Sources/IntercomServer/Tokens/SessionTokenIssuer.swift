/// Mints session tokens: the part of the original Cloud Code `beforeSave` that called OpenTok's
/// `generateToken`, now a JWT (SYSTEM.md §4).
struct SessionTokenIssuer: Sendable {
    let keyRing: TokenKeyRing
    let lifetimeSeconds: Int64

    func issue(sessionID: String, userID: String, role: SessionRole, nowSeconds: Int64) async throws
        -> (token: String, claims: SessionTokenClaims)
    {
        let claims = SessionTokenClaims(
            sid: sessionID, sub: userID, role: role, iat: nowSeconds, exp: nowSeconds + lifetimeSeconds,
            jti: RandomText.alphanumeric(16))
        return (try await keyRing.sign(claims), claims)
    }
}
