import JWTKit

/// The claims of a session token (SYSTEM.md §4): `sid` binds it to one call session, `sub` is the userID
/// it was issued to, `role` what it may do, `iat`/`exp` in seconds since 1970 (RFC 7519 NumericDate), and
/// `jti` a unique id (for replay bookkeeping).
public struct SessionTokenClaims: JWTPayload, Equatable {
    public var sid: String
    public var sub: String
    /// The raw role text; `SessionTokenVerifier` rejects anything but a known `SessionRole`.
    public var role: String
    public var iat: Int64
    public var exp: Int64
    public var jti: String

    public init(sid: String, sub: String, role: SessionRole, iat: Int64, exp: Int64, jti: String) {
        self.sid = sid
        self.sub = sub
        self.role = role.rawValue
        self.iat = iat
        self.exp = exp
        self.jti = jti
    }

    public var sessionRole: SessionRole? { SessionRole(rawValue: role) }

    /// Time-based checks need the server's clock (and leeway), so they run in `SessionTokenVerifier`.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
