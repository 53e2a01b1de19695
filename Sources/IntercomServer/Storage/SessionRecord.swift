/// A `_Session` row. Only the SHA-256 of the token is stored, so a copy of the database file does not hand
/// out live sessions.
struct SessionRecord: Sendable, Equatable {
    var objectId: String
    var userId: String
    var installationId: String?
    /// `login` or `signup`, with the provider (`password` or `anonymous`), as parse-server's `createdWith`.
    var action: String
    var provider: String
    var expiresAt: Int64
    var createdAt: Int64
    var updatedAt: Int64

    /// `GET /sessions/me` (the token itself comes from the request; only its hash is stored).
    func restJSON(token: String) -> [String: JSONValue] {
        var json: [String: JSONValue] = [
            "objectId": .string(objectId),
            "sessionToken": .string(token),
            "user": ["__type": "Pointer", "className": "_User", "objectId": .string(userId)],
            "createdWith": ["action": .string(action), "authProvider": .string(provider)],
            "restricted": false,
            "expiresAt": ParseTimestamp.typedDate(milliseconds: expiresAt),
            "createdAt": .string(ParseTimestamp.format(milliseconds: createdAt)),
            "updatedAt": .string(ParseTimestamp.format(milliseconds: updatedAt)),
        ]
        if let installationId { json["installationId"] = .string(installationId) }
        return json
    }
}
