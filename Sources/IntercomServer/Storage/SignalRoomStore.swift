/// Which instance of a fleet owns each call's signaling room (`"_SignalRoom"`), and which instances are
/// alive (`"_Instance"`, a heartbeat every `PostgresBus.heartbeatInterval`). PostgreSQL only: one instance
/// on SQLite owns every room.
enum SignalRoomStore {
    /// An instance not heard from for this long is dead: its rooms go to the next instance that asks.
    static let deadAfterSeconds = 6

    /// The owner of `sessionID`'s room: the first instance to ask, until it stops beating.
    static func claim(_ db: any StorageConnection, sessionID: String, instance: String) throws -> String {
        try db.execute("""
            INSERT INTO "_SignalRoom" (sessionID, owner) VALUES (?, ?)
            ON CONFLICT (sessionID) DO UPDATE SET owner = excluded.owner, claimedAt = now()
            WHERE NOT EXISTS (SELECT 1 FROM "_Instance" WHERE id = "_SignalRoom".owner
                              AND lastSeen > now() - make_interval(secs => ?))
            """, [sessionID, instance, Double(deadAfterSeconds)])
        return try db.value(String.self, #"SELECT owner FROM "_SignalRoom" WHERE sessionID = ?"#, [sessionID]) ?? instance
    }

    /// Records that `instance` is alive and returns every instance alive now (itself included).
    static func beat(_ db: any StorageConnection, instance: String) throws -> Set<String> {
        try db.execute("""
            INSERT INTO "_Instance" (id, lastSeen) VALUES (?, now())
            ON CONFLICT (id) DO UPDATE SET lastSeen = now()
            """, [instance])
        return Set(try db.values(String.self, """
            SELECT id FROM "_Instance" WHERE lastSeen > now() - make_interval(secs => ?)
            """, [Double(deadAfterSeconds)]))
    }

    /// Forgets instances dead for a minute and rooms of sessions that have ended.
    static func prune(_ db: any StorageConnection) throws {
        try db.execute(#"DELETE FROM "_Instance" WHERE lastSeen < now() - interval '1 minute'"#)
        try db.execute(#"DELETE FROM "_SignalRoom" WHERE sessionID NOT IN (SELECT sessionID FROM "_CallSession")"#)
    }
}
