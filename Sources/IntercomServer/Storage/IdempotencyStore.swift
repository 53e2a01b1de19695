
/// `X-Parse-Request-Id` records (parse-server `_Idempotency`): a repeat within the TTL is a duplicate.
enum IdempotencyStore {
    /// Records `requestId`; false if it was already recorded and has not expired.
    static func record(_ db: any StorageConnection, requestId: String, now: Int64, ttlMilliseconds: Int64) throws -> Bool {
        if try db.value(Int64.self, #"SELECT expiresAt FROM "_Idempotency" WHERE requestId = ?"#,
                              [requestId]).map({ $0 > now }) == true {
            return false
        }
        try db.execute(#"INSERT INTO "_Idempotency" (requestId, expiresAt) VALUES (?, ?) ON CONFLICT (requestId) DO UPDATE SET expiresAt = excluded.expiresAt"#,
                       [requestId, now + ttlMilliseconds])
        return true
    }
}
