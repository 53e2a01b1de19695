/// A STUN server for server-reflexive candidates (RFC 8489). Prefer an IP literal: libnice resolves
/// host names itself since 0.1.20, but a literal avoids a DNS stall while gathering.
public struct STUNServer: Sendable, Equatable {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16 = 3478) {
        self.host = host
        self.port = port
    }
}

/// A TURN server over UDP for relayed candidates (RFC 8656), with long-term credentials (for coturn's
/// REST API, the username is `expiry:user` and the password its HMAC).
public struct TURNServer: Sendable, Equatable {
    public var host: String
    public var port: UInt16
    public var username: String
    public var password: String

    public init(host: String, port: UInt16 = 3478, username: String, password: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }
}
