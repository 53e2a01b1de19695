import GRDB

/// `_User` rows.
enum UserStore {
    static func insert(_ db: Database, _ user: UserRecord) throws {
        try db.execute(
            sql: """
                INSERT INTO "_User" (objectId, username, passwordHash, anonymousId, body, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [user.objectId, user.username, user.passwordHash, user.anonymousId,
                        JSONCoding.encodeString(.object(user.extra)), user.createdAt, user.updatedAt])
    }

    static func fetch(_ db: Database, objectId: String) throws -> UserRecord? {
        try fetchOne(db, where: "objectId = ?", objectId)
    }

    static func fetch(_ db: Database, username: String) throws -> UserRecord? {
        try fetchOne(db, where: "username = ?", username)
    }

    static func fetch(_ db: Database, anonymousId: String) throws -> UserRecord? {
        try fetchOne(db, where: "anonymousId = ?", anonymousId)
    }

    static func usernameExists(_ db: Database, _ username: String) throws -> Bool {
        try Bool.fetchOne(db, sql: #"SELECT EXISTS (SELECT 1 FROM "_User" WHERE username = ?)"#, arguments: [username])
            ?? false
    }

    private static func fetchOne(_ db: Database, where condition: String, _ value: String) throws -> UserRecord? {
        try Row.fetchOne(db, sql: #"SELECT * FROM "_User" WHERE \#(condition)"#, arguments: [value]).map(record)
    }

    static func record(_ row: Row) -> UserRecord {
        let body: String = row["body"]
        return UserRecord(
            objectId: row["objectId"], username: row["username"], passwordHash: row["passwordHash"],
            anonymousId: row["anonymousId"], extra: (try? JSONCoding.decode(body))?.objectValue ?? [:],
            createdAt: row["createdAt"], updatedAt: row["updatedAt"])
    }
}
