import Foundation
@testable import IntercomServer
import Testing

/// Reliability matrix row 27: forged, expired, wrong-session and role-escalation tokens are refused.
@Suite struct SessionTokenVerifierTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static var nowSeconds: Int64 { Int64(now.timeIntervalSince1970) }

    static func key(_ kid: String, _ fill: UInt8) throws -> TokenKey {
        try TokenKey(kid: kid, secret: [UInt8](repeating: fill, count: 32))
    }

    static func ring(_ keys: [TokenKey]) async throws -> TokenKeyRing {
        try await TokenKeyRing(keys: keys)
    }

    static func token(_ ring: TokenKeyRing, session: String = "S1", user: String = "u1", role: SessionRole = .publisher,
                      iat: Int64 = nowSeconds, lifetime: Int64 = 3600) async throws -> String {
        try await ring.sign(SessionTokenClaims(sid: session, sub: user, role: role, iat: iat, exp: iat + lifetime, jti: "j1"))
    }

    static func segment(_ json: String) -> String {
        Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    func rejection(_ verifier: SessionTokenVerifier, _ token: String, session: String? = "S1",
                   roles: Set<SessionRole> = [.publisher, .subscriber], at now: Date = SessionTokenVerifierTests.now)
        async -> SessionTokenRejection?
    {
        do {
            _ = try await verifier.verify(token, sessionID: session, roles: roles, now: now)
            return nil
        } catch {
            return error
        }
    }

    @Test func aGenuineTokenVerifies() async throws {
        let ring = try await Self.ring([Self.key("k1", 1)])
        let claims = try await SessionTokenVerifier(keyRing: ring).verify(try await Self.token(ring), sessionID: "S1",
                                                                         now: Self.now)
        #expect(claims == SessionTokenClaims(sid: "S1", sub: "u1", role: .publisher, iat: Self.nowSeconds,
                                             exp: Self.nowSeconds + 3600, jti: "j1"))
    }

    @Test func forgedTokensAreRefused() async throws {
        let ring = try await Self.ring([Self.key("k1", 1)])
        let verifier = SessionTokenVerifier(keyRing: ring)
        let genuine = try await Self.token(ring)
        let parts = genuine.split(separator: ".").map(String.init)

        // Same kid, different secret: a forger who guessed the key id.
        let forger = try await Self.ring([Self.key("k1", 2)])
        #expect(await rejection(verifier, try await Self.token(forger)) == .badSignature)

        // A payload swapped under the genuine signature (escalate to another user).
        let otherPayload = Self.segment(#"{"sid":"S1","sub":"admin","role":"publisher","iat":1795000000,"exp":1795003600,"jti":"x"}"#)
        #expect(await rejection(verifier, [parts[0], otherPayload, parts[2]].joined(separator: ".")) == .badSignature)

        // alg:none and algorithm confusion.
        let none = Self.segment(#"{"alg":"none","kid":"k1","typ":"JWT"}"#)
        #expect(await rejection(verifier, [none, parts[1], ""].joined(separator: ".")) == .unsupportedAlgorithm)
        let hs512 = Self.segment(#"{"alg":"HS512","kid":"k1","typ":"JWT"}"#)
        #expect(await rejection(verifier, [hs512, parts[1], parts[2]].joined(separator: ".")) == .unsupportedAlgorithm)

        // Unknown or missing key id.
        let stranger = try await Self.ring([Self.key("k9", 1)])
        #expect(await rejection(verifier, try await Self.token(stranger)) == .unknownKey)
        let noKid = Self.segment(#"{"alg":"HS256","typ":"JWT"}"#)
        #expect(await rejection(verifier, [noKid, parts[1], parts[2]].joined(separator: ".")) == .unknownKey)

        // Garbage.
        for junk in ["", "abc", "a.b", "a.b.c", "a.b.c.d", parts[0] + "." + parts[1], String(repeating: "A", count: 9000)] {
            #expect(await rejection(verifier, junk) == .malformed, "\(junk.prefix(20))")
        }
    }

    /// Every single-character change of a genuine token is refused (0 accepted).
    @Test func noMutationOfAGenuineTokenIsAccepted() async throws {
        let ring = try await Self.ring([Self.key("k1", 1)])
        let verifier = SessionTokenVerifier(keyRing: ring)
        let genuine = Array(try await Self.token(ring).utf8)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.".utf8)
        var random = SplitMix64(seed: 27)
        var accepted = 0
        for _ in 0..<3000 {
            var mutated = genuine
            let index = Int(random.next() % UInt64(mutated.count))
            let replacement = alphabet[Int(random.next() % UInt64(alphabet.count))]
            guard mutated[index] != replacement else { continue }
            mutated[index] = replacement
            // base64url's last character may carry unused bits: a change there can decode to the same bytes.
            let text = String(decoding: mutated, as: UTF8.self)
            if let claims = try? await verifier.verify(text, sessionID: "S1", now: Self.now) {
                let decodesIdentically = text.split(separator: ".").map { Base64URL.decode($0) }
                    == String(decoding: genuine, as: UTF8.self).split(separator: ".").map { Base64URL.decode($0) }
                if !decodesIdentically || claims.sub != "u1" { accepted += 1 }
            }
        }
        #expect(accepted == 0)
    }

    @Test func expiryHonoursAtMostSixtySecondsOfLeeway() async throws {
        let ring = try await Self.ring([Self.key("k1", 1)])
        let verifier = SessionTokenVerifier(keyRing: ring, leewaySeconds: 600)
        #expect(verifier.leewaySeconds == 60)
        let token = try await Self.token(ring, lifetime: 100)
        #expect(await rejection(verifier, token, at: Self.now + 159) == nil)
        #expect(await rejection(verifier, token, at: Self.now + 161) == .expired)
        let future = try await Self.token(ring, iat: Self.nowSeconds + 120)
        #expect(await rejection(verifier, future) == .badTimestamps)
        let tooLong = try await Self.token(ring, lifetime: 2 * 86_400)
        #expect(await rejection(verifier, tooLong) == .badTimestamps)
        let backwards = try await ring.sign(SessionTokenClaims(sid: "S1", sub: "u", role: .publisher,
                                                               iat: Self.nowSeconds, exp: Self.nowSeconds - 10, jti: "j"))
        #expect(await rejection(verifier, backwards) == .badTimestamps)
    }

    @Test func sessionBindingAndRoleAreEnforced() async throws {
        let ring = try await Self.ring([Self.key("k1", 1)])
        let verifier = SessionTokenVerifier(keyRing: ring)
        #expect(await rejection(verifier, try await Self.token(ring, session: "S2")) == .wrongSession)
        let viewer = try await Self.token(ring, role: .subscriber)
        #expect(await rejection(verifier, viewer, roles: [.publisher]) == .wrongRole)
        #expect(await rejection(verifier, viewer, roles: [.subscriber]) == nil)
        var elevated = SessionTokenClaims(sid: "S1", sub: "u1", role: .subscriber, iat: Self.nowSeconds,
                                          exp: Self.nowSeconds + 60, jti: "j")
        elevated.role = "moderator"
        #expect(await rejection(verifier, try await ring.sign(elevated)) == .wrongRole)
    }

    @Test func rotationSignsWithTheNewestAndVerifiesWithAll() async throws {
        let old = try await Self.ring([Self.key("k1", 1)])
        let rotated = try await Self.ring([Self.key("k2", 2), Self.key("k1", 1)])
        #expect(rotated.signingKid == "k2")
        let oldToken = try await Self.token(old)
        #expect(await rejection(SessionTokenVerifier(keyRing: rotated), oldToken) == nil)
        let newToken = try await Self.token(rotated)
        let header = try #require(Base64URL.decode(newToken.split(separator: ".")[0]))
        #expect(String(decoding: header, as: UTF8.self).contains(#""kid":"k2""#))
        #expect(await rejection(SessionTokenVerifier(keyRing: old), newToken) == .unknownKey)
    }

    @Test func shortSecretsAndBadKeyIdsAreConfigurationErrors() {
        #expect(throws: ServerConfigurationError.self) { try TokenKey(kid: "k1", secret: Array("short".utf8)) }
        #expect(throws: ServerConfigurationError.self) { try TokenKey(kid: "bad kid", secret: [UInt8](repeating: 1, count: 32)) }
        #expect(throws: ServerConfigurationError.self) {
            try ServerConfiguration.tokenKeys("k1=\(String(repeating: "a", count: 32)),k1=\(String(repeating: "b", count: 32))")
        }
        let keys = try? ServerConfiguration.tokenKeys("new=\(String(repeating: "a", count: 32)),old=\(String(repeating: "b", count: 40))")
        #expect(keys?.map(\.kid) == ["new", "old"])
    }
}
