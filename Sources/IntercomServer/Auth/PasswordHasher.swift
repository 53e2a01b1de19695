import Crypto
import Foundation

/// Password hashes as `pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>`: PBKDF2 (RFC 8018 §5.2)
/// with HMAC-SHA256, a 16-byte random salt and a 32-byte output. The iteration count travels with the
/// hash, so it can be raised later without invalidating stored passwords.
public struct PasswordHasher: Sendable {
    public let iterations: Int

    /// OWASP's 2023 guidance for PBKDF2-HMAC-SHA256 is 600 000; 210 000 keeps a Pi-class login under a
    /// second in release builds. Tests pass a small count.
    public static let defaultIterations = 210_000

    public init(iterations: Int = PasswordHasher.defaultIterations) {
        self.iterations = max(1, iterations)
    }

    public func hash(_ password: String) -> String {
        let salt = RandomText.bytes(16)
        let derived = Self.pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations)
        return "pbkdf2-sha256$\(iterations)$\(Data(salt).base64EncodedString())$\(Data(derived).base64EncodedString())"
    }

    /// A well-formed hash that no password matches (random salt and output), costing nothing to make and
    /// a full verification to check: used for unknown usernames so timing does not reveal which exist.
    public func unmatchableHash() -> String {
        "pbkdf2-sha256$\(iterations)$\(Data(RandomText.bytes(16)).base64EncodedString())$\(Data(RandomText.bytes(32)).base64EncodedString())"
    }

    /// Constant-time check of `password` against a stored hash; false for a malformed hash.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), (1...10_000_000).contains(rounds),
              let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3])),
              expected.count == 32
        else { return false }
        let derived = Self.pbkdf2(password: Array(password.utf8), salt: Array(salt), iterations: rounds)
        return zip(derived, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// PBKDF2 for one 32-byte block (dkLen = hLen): T1 = U1 ^ U2 ^ … ^ Uc, U1 = PRF(P, S || INT(1)).
    static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        let keyed = HMAC<SHA256>(key: SymmetricKey(data: password))
        var mac = keyed
        mac.update(data: salt + [0, 0, 0, 1])
        var block = Array(mac.finalize())
        var result = block
        for _ in 1..<max(iterations, 1) {
            var next = keyed
            next.update(data: block)
            block = Array(next.finalize())
            for index in result.indices { result[index] ^= block[index] }
        }
        return result
    }
}
