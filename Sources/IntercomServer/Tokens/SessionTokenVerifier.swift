import Foundation
import JWTKit

/// Why a session token was refused. The signaling endpoint maps these onto its `error` frame codes
/// (`bad-token`, `expired`, `forbidden`).
public enum SessionTokenRejection: Error, Sendable, Equatable {
    /// Not three base64url segments of JSON, too long, or missing claims.
    case malformed
    /// `alg` is not HS256 (this rejects `none` and algorithm confusion).
    case unsupportedAlgorithm
    /// No `kid`, or one that is not in the key ring.
    case unknownKey
    case badSignature
    case expired
    /// `iat` in the future (beyond the leeway), `exp` before `iat`, or a lifetime over the limit.
    case badTimestamps
    case wrongSession
    case wrongRole
}

/// Verifies session tokens for the signaling endpoint: signature (constant-time HMAC compare in JWTKit),
/// key id, algorithm, expiry with leeway, the session binding and the role.
public struct SessionTokenVerifier: Sendable {
    public let keyRing: TokenKeyRing
    public let leewaySeconds: Int64
    public let maximumLifetimeSeconds: Int64

    /// Tokens far larger than ours (~400 bytes) are refused before any parsing.
    public static let maximumTokenBytes = 8192

    public init(keyRing: TokenKeyRing, leewaySeconds: Int64 = 60,
                maximumLifetimeSeconds: Int64 = ServerConfiguration.tokenLifetimeLimitSeconds) {
        self.keyRing = keyRing
        self.leewaySeconds = min(max(leewaySeconds, 0), 60)
        self.maximumLifetimeSeconds = maximumLifetimeSeconds
    }

    /// The claims of `token` if it is genuine, current, bound to `sessionID` (when given) and carries one
    /// of `roles`.
    public func verify(_ token: String, sessionID: String? = nil,
                       roles: Set<SessionRole> = Set(SessionRole.allCases), now: Date) async throws(SessionTokenRejection)
        -> SessionTokenClaims
    {
        guard token.utf8.count <= Self.maximumTokenBytes else { throw .malformed }
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let headerBytes = Base64URL.decode(segments[0]),
              let header = try? JSONCoding.decode(headerBytes), header.objectValue != nil
        else { throw .malformed }
        guard header["alg"]?.stringValue == "HS256" else { throw .unsupportedAlgorithm }
        guard let kid = header["kid"]?.stringValue, keyRing.kids.contains(kid) else { throw .unknownKey }

        let claims: SessionTokenClaims
        do {
            claims = try await keyRing.collection.verify(token, as: SessionTokenClaims.self)
        } catch {
            throw Self.classify(error)
        }

        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        guard claims.exp >= claims.iat, claims.exp - claims.iat <= maximumLifetimeSeconds,
              claims.iat <= nowSeconds + leewaySeconds
        else { throw .badTimestamps }
        guard nowSeconds <= claims.exp + leewaySeconds else { throw .expired }
        if let sessionID, claims.sid != sessionID { throw .wrongSession }
        guard let role = claims.sessionRole, roles.contains(role) else { throw .wrongRole }
        return claims
    }

    private static func classify(_ error: any Error) -> SessionTokenRejection {
        if let jwtError = error as? JWTError, jwtError.errorType == .signatureVerificationFailed {
            return .badSignature
        }
        return .malformed
    }
}
