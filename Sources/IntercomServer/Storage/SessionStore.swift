import Crypto

/// `_Session` rows, keyed by the SHA-256 of the token.
enum SessionStore {
    static func tokenHash(_ token: String) -> String {
        RandomText.hex(SHA256.hash(data: Array(token.utf8)))
    }

    /// Creates a session and returns its token. Logging in again from the same installation replaces that
    /// installation's older sessions (parse-server `destroyDuplicatedSessions`).
    static func create(_ db: any StorageConnection, userId: String, installationId: String?, action: String, provider: String,
                       now: Int64, lifetimeMilliseconds: Int64) throws -> String {
        if let installationId {
            try db.execute(#"DELETE FROM "_Session" WHERE userId = ? AND installationId = ?"#,
                           [userId, installationId])
        }
        let token = RandomText.sessionToken()
        try db.execute("""
                INSERT INTO "_Session" (objectId, tokenHash, userId, installationId, createdWith, expiresAt, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            [RandomText.objectId(), tokenHash(token), userId, installationId, action + ":" + provider,
                        now + lifetimeMilliseconds, now, now])
        return token
    }

    static func fetch(_ db: any StorageConnection, token: String) throws -> SessionRecord? {
        try db.row(#"SELECT * FROM "_Session" WHERE tokenHash = ?"#, [tokenHash(token)])
            .map { row in
                let createdWith: String = row["createdWith"]
                let parts = createdWith.split(separator: ":", maxSplits: 1).map(String.init)
                return SessionRecord(
                    objectId: row["objectId"], userId: row["userId"], installationId: row["installationId"],
                    action: parts.first ?? "login", provider: parts.count > 1 ? parts[1] : "password",
                    expiresAt: row["expiresAt"], createdAt: row["createdAt"], updatedAt: row["updatedAt"])
            }
    }

    @discardableResult
    static func delete(_ db: any StorageConnection, token: String) throws -> Bool {
        try db.execute(#"DELETE FROM "_Session" WHERE tokenHash = ?"#, [tokenHash(token)]) > 0
    }
}
