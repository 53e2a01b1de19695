/// A username and password for Digest authentication.
public struct DigestCredentials: Hashable, Sendable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}
