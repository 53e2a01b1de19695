import Crypto
import Foundation

/// Ephemeral TURN credentials (draft-uberti-behave-turn-rest-00 §2.2, coturn `use-auth-secret`):
/// `username = "<expiry unix seconds>:<userID>"`, `credential = base64(HMAC-SHA1(secret, username))`.
/// They cannot be revoked, so their lifetime never exceeds the call token's.
public enum TURNCredentials {
    public static func make(secret: String, userID: String, expiresAtSeconds: Int64) -> (username: String, credential: String) {
        let username = "\(expiresAtSeconds):\(userID)"
        let mac = HMAC<Insecure.SHA1>.authenticationCode(
            for: Array(username.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return (username, Data(mac).base64EncodedString())
    }
}

/// The ICE servers handed to call participants: the STUN list as is, TURN with fresh credentials when a
/// TURN secret is configured.
public struct IceServerProvider: Sendable {
    public let stunURLs: [String]
    public let turnURLs: [String]
    public let turnSecret: String?
    public let lifetimeSeconds: Int64

    public init(stunURLs: [String], turnURLs: [String], turnSecret: String?, lifetimeSeconds: Int64) {
        self.stunURLs = stunURLs
        self.turnURLs = turnURLs
        self.turnSecret = turnSecret
        self.lifetimeSeconds = lifetimeSeconds
    }

    public func iceServers(for userID: String, nowSeconds: Int64) -> [IceServer] {
        var servers: [IceServer] = []
        if !stunURLs.isEmpty { servers.append(IceServer(urls: stunURLs)) }
        if let turnSecret, !turnURLs.isEmpty {
            let (username, credential) = TURNCredentials.make(
                secret: turnSecret, userID: userID, expiresAtSeconds: nowSeconds + lifetimeSeconds)
            servers.append(IceServer(urls: turnURLs, username: username, credential: credential))
        }
        return servers
    }
}
