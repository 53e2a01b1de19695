import Crypto
import GRDB

/// `_Session` rows, keyed by the SHA-256 of the token.
enum SessionStore {
    static func tokenHash(_ token: String) -> String {
        RandomText.hex(SHA256.hash(data: Array(token.utf8)))
    }

    /// Creates a session and returns its token. Logging in again from the same installation replaces that
    /// installation's older sessions (parse-server `destroyDuplicatedSessions`).
    static func create(_ db: Database, userId: String, installationId: String?, action: String, provider: String,
                       now: Int64, lifetimeMilliseconds: Int64) throws -> String {
        if let installationId {
            try db.execute(sql: #"DELETE FROM "_Session" WHERE userId = ? AND installationId = ?"#,
                           arguments: [userId, installationId])
        }
        let token = RandomText.sessionToken()
        try db.execute(
            sql: """
                INSERT INTO "_Session" (objectId, tokenHash, userId, installationId, createdWith, expiresAt, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [RandomText.objectId(), tokenHash(token), userId, installationId, action + ":" + provider,
                        now + lifetimeMilliseconds, now, now])
        return token
    }

    static func fetch(_ db: Database, token: String) throws -> SessionRecord? {
        try Row.fetchOne(db, sql: #"SELECT * FROM "_Session" WHERE tokenHash = ?"#, arguments: [tokenHash(token)])
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
    static func delete(_ db: Database, token: String) throws -> Bool {
        try db.execute(sql: #"DELETE FROM "_Session" WHERE tokenHash = ?"#, arguments: [tokenHash(token)])
        return db.changesCount > 0
    }
}
