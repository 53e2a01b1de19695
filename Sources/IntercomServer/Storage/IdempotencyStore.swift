import GRDB

/// `X-Parse-Request-Id` records (parse-server `_Idempotency`): a repeat within the TTL is a duplicate.
enum IdempotencyStore {
    /// Records `requestId`; false if it was already recorded and has not expired.
    static func record(_ db: Database, requestId: String, now: Int64, ttlMilliseconds: Int64) throws -> Bool {
        if try Int64.fetchOne(db, sql: #"SELECT expiresAt FROM "_Idempotency" WHERE requestId = ?"#,
                              arguments: [requestId]).map({ $0 > now }) == true {
            return false
        }
        try db.execute(sql: #"INSERT OR REPLACE INTO "_Idempotency" (requestId, expiresAt) VALUES (?, ?)"#,
                       arguments: [requestId, now + ttlMilliseconds])
        return true
    }
}
