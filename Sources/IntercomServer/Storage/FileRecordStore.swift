
/// `_File` rows: who uploaded each Parse File (issue #19 follow-up). parse-server keeps no such record
/// and trusts any `{"__type":"File"}` a client writes; here the record is what lets a row reference, and
/// a row's deletion remove, only files its own writer uploaded. `ownerId` is nil for a master-key upload.
enum FileRecordStore {
    struct Record: Sendable, Equatable {
        var name: String
        var ownerId: String?
        var size: Int
        var contentType: String
        var createdAt: Int64
    }

    static func insert(_ db: any StorageConnection, _ record: Record) throws {
        try db.execute(#"INSERT INTO "_File" (name, ownerId, size, contentType, createdAt) VALUES (?, ?, ?, ?, ?)"#,
            [record.name, record.ownerId, record.size, record.contentType, record.createdAt])
    }

    static func fetch(_ db: any StorageConnection, name: String) throws -> Record? {
        try db.row(#"SELECT * FROM "_File" WHERE name = ?"#, [name]).map { row in
            Record(name: row["name"], ownerId: row["ownerId"], size: row["size"], contentType: row["contentType"],
                   createdAt: row["createdAt"])
        }
    }

    /// Those of `names` that `userId` did not upload (unknown names included: the answer must not tell
    /// a stranger's file from no file).
    static func notOwned(_ db: any StorageConnection, names: some Sequence<String>, by userId: String?) throws -> [String] {
        try names.filter { name in
            guard let userId, let record = try fetch(db, name: name) else { return true }
            return record.ownerId != userId
        }
    }

    /// Forgets those of `names` that `ownerId` uploaded and returns them: the files the caller may now
    /// delete from disk. Others' files, and files without a record, are left alone.
    static func release(_ db: any StorageConnection, names: some Sequence<String>, ownedBy ownerId: String?) throws -> [String] {
        guard let ownerId else { return [] }
        var released: [String] = []
        for name in Set(names) {
            if try db.execute(#"DELETE FROM "_File" WHERE name = ? AND ownerId = ?"#, [name, ownerId]) > 0 {
                released.append(name)
            }
        }
        return released
    }

    /// Forgets `name` whoever uploaded it (the file's own `DELETE`, already authorised).
    static func delete(_ db: any StorageConnection, name: String) throws {
        try db.execute(#"DELETE FROM "_File" WHERE name = ?"#, [name])
    }

    /// Every recorded name (the retention sweep leaves these to their records' age).
    static func names(_ db: any StorageConnection) throws -> [String] {
        try db.values(String.self, #"SELECT name FROM "_File""#)
    }

    /// Forgets every file uploaded before `cutoff` and returns their names (the retention sweep's orphans).
    static func deleteOlder(_ db: any StorageConnection, than cutoff: Int64) throws -> [String] {
        let names = try db.values(String.self, #"SELECT name FROM "_File" WHERE createdAt < ?"#, [cutoff])
        try db.execute(#"DELETE FROM "_File" WHERE createdAt < ?"#, [cutoff])
        return names
    }
}
