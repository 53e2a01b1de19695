/// A `_User` row. Passwords exist only as PBKDF2 hashes; anonymous users have an `anonymousId` instead.
public struct UserRecord: Sendable, Equatable {
    public var objectId: String
    public var username: String
    var passwordHash: String?
    public var anonymousId: String?
    /// Extra fields sent at sign-up (e.g. a display name).
    var extra: [String: JSONValue]
    var createdAt: Int64
    var updatedAt: Int64

    /// The user as parse-server returns it: never the password; `authData` for anonymous users; the
    /// private ACL parse-server gives new users since 6.0 (`enforcePrivateUsers`).
    var restJSON: [String: JSONValue] {
        var json = extra
        json["objectId"] = .string(objectId)
        json["username"] = .string(username)
        json["createdAt"] = .string(ParseTimestamp.format(milliseconds: createdAt))
        json["updatedAt"] = .string(ParseTimestamp.format(milliseconds: updatedAt))
        json["ACL"] = [objectId: ["read": true, "write": true]]
        if let anonymousId { json["authData"] = ["anonymous": ["id": .string(anonymousId)]] }
        return json
    }
}
