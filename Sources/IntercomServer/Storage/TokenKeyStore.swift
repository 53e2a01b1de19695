import Foundation

/// The token signing key generated on first start when none is configured, kept in the database so
/// tokens stay valid across restarts.
enum TokenKeyStore {
    /// The stored keys, newest first; creates one if there are none.
    static func loadOrCreate(_ db: any StorageConnection, now: Int64) throws -> [TokenKey] {
        let stored = try db.rows(#"SELECT kid, secret FROM "_TokenKey" ORDER BY createdAt DESC, kid"#)
            .map { row in TokenKey(validKid: row["kid"], secret: [UInt8](row["secret"] as Data)) }
        if !stored.isEmpty { return stored }
        let key = TokenKey.generate()
        try db.execute(#"INSERT INTO "_TokenKey" (kid, secret, createdAt) VALUES (?, ?, ?)"#,
                       [key.kid, Data(key.secret), now])
        return [key]
    }
}
