/// One HS256 signing key for session tokens, named by the `kid` JWT header so keys can rotate.
public struct TokenKey: Sendable, Equatable {
    public let kid: String
    public let secret: [UInt8]

    /// HS256 needs a key at least as long as its 32-byte output (RFC 7518 §3.2).
    public static let minimumSecretBytes = 32

    public init(kid: String, secret: [UInt8]) throws(ServerConfigurationError) {
        guard !kid.isEmpty, kid.count <= 64,
              kid.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x2E || $0 == 0x5F || (0x30...0x39).contains($0)
                  || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { throw ServerConfigurationError("token key id \"\(kid)\" must be 1-64 characters of A-Z a-z 0-9 . _ -") }
        guard secret.count >= Self.minimumSecretBytes else {
            throw ServerConfigurationError(
                "token key \"\(kid)\" is \(secret.count) bytes; HS256 needs at least \(Self.minimumSecretBytes)")
        }
        self.kid = kid
        self.secret = secret
    }

    /// A fresh random key.
    static func generate() -> TokenKey {
        // A 9-character hex kid and 32 random bytes satisfy the checks above by construction.
        TokenKey(validKid: "k" + RandomText.hex(RandomText.bytes(4)), secret: RandomText.bytes(32))
    }

    /// A key read back from the database, where only keys that passed the checks are stored.
    init(validKid kid: String, secret: [UInt8]) {
        self.kid = kid
        self.secret = secret
    }
}

/// A configuration value that cannot be used, with the reason.
public struct ServerConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
