
/// `_User` rows.
enum UserStore {
    static func insert(_ db: any StorageConnection, _ user: UserRecord) throws {
        try db.execute("""
                INSERT INTO "_User" (objectId, username, passwordHash, anonymousId, body, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            [user.objectId, user.username, user.passwordHash, user.anonymousId,
                        JSONCoding.encodeString(.object(user.extra)), user.createdAt, user.updatedAt])
    }

    static func fetch(_ db: any StorageConnection, objectId: String) throws -> UserRecord? {
        try fetchOne(db, where: "objectId = ?", objectId)
    }

    static func fetch(_ db: any StorageConnection, username: String) throws -> UserRecord? {
        try fetchOne(db, where: "username = ?", username)
    }

    static func fetch(_ db: any StorageConnection, anonymousId: String) throws -> UserRecord? {
        try fetchOne(db, where: "anonymousId = ?", anonymousId)
    }

    static func usernameExists(_ db: any StorageConnection, _ username: String) throws -> Bool {
        try db.value(Bool.self, #"SELECT EXISTS (SELECT 1 FROM "_User" WHERE username = ?)"#, [username])
            ?? false
    }

    private static func fetchOne(_ db: any StorageConnection, where condition: String, _ value: String) throws -> UserRecord? {
        try db.row(#"SELECT * FROM "_User" WHERE \#(condition)"#, [value]).map(record)
    }

    static func record(_ row: SQLRow) -> UserRecord {
        let body: String = row["body"]
        return UserRecord(
            objectId: row["objectId"], username: row["username"], passwordHash: row["passwordHash"],
            anonymousId: row["anonymousId"], extra: (try? JSONCoding.decode(body))?.objectValue ?? [:],
            createdAt: row["createdAt"], updatedAt: row["updatedAt"])
    }
}
