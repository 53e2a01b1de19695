import Foundation

/// A call session the server minted tokens for. It outlives its `ActiveSessions` row (the receiver deletes
/// the row when it answers) until the tokens expire, so participants can still mint viewer tokens and the
/// signaling endpoint can check that a session exists.
public struct CallSessionRecord: Sendable, Equatable {
    public let sessionID: String
    public let callerID: String
    public let receiverID: String
    public let createdAt: Int64
    /// When the tokens minted for it expire (milliseconds since 1970).
    public let expiresAt: Int64

    public func isParticipant(_ userID: String) -> Bool {
        userID == callerID || userID == receiverID
    }
}

enum CallSessionStore {
    static func insert(_ db: any StorageConnection, _ record: CallSessionRecord) throws {
        try db.execute(#"INSERT INTO "_CallSession" (sessionID, callerID, receiverID, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)"#,
            [record.sessionID, record.callerID, record.receiverID, record.createdAt, record.expiresAt])
    }

    static func fetch(_ db: any StorageConnection, sessionID: String, now: Int64) throws -> CallSessionRecord? {
        try db.row(#"SELECT * FROM "_CallSession" WHERE sessionID = ? AND expiresAt > ?"#, [sessionID, now]
        ).map { row in
            CallSessionRecord(sessionID: row["sessionID"], callerID: row["callerID"], receiverID: row["receiverID"],
                              createdAt: row["createdAt"], expiresAt: row["expiresAt"])
        }
    }
}

extension ServerDatabase {
    /// The live call session `sessionID`, for the signaling endpoint.
    public func callSession(_ sessionID: String, now: Date) async throws -> CallSessionRecord? {
        let millis = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        return try await read { db in try CallSessionStore.fetch(db, sessionID: sessionID, now: millis) }
    }
}
