/// Which instance of a fleet owns each call's signaling room (`"_SignalRoom"`), and which instances are
/// alive. PostgreSQL only: one instance on SQLite owns every room.
///
/// Alive means both: heard from within `deadAfterSeconds` (`"_Instance"`, a heartbeat every
/// `PostgresBus.heartbeatInterval`), and its bus listener connected (`pg_stat_activity`, by the listener's
/// `application_name`). The second notices a killed instance at once (PostgreSQL sees its connection close),
/// where the heartbeat alone waited 6 s; and an instance whose listener is down cannot hear the signals sent
/// to it, so its rooms are better moved anyway. The heartbeat still decides for a host that vanished without
/// closing its connections.
enum SignalRoomStore {
    /// An instance not heard from for this long is dead: its rooms go to the next instance that asks.
    static let deadAfterSeconds = 6

    /// The bus listener's `application_name`: this prefix and the instance's id.
    private static let listenerPrefix = "intercom-bus:"
    static func listenerName(_ instance: String) -> String { listenerPrefix + instance }

    /// The SQL condition that instance row `alias` is alive; one argument, `deadAfterSeconds`.
    private static func alive(_ alias: String) -> String {
        """
        \(alias).lastSeen > now() - make_interval(secs => ?)
        AND EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = '\(listenerPrefix)' || \(alias).id)
        """
    }

    /// The owner of `sessionID`'s room: the first instance to ask, until it stops beating.
    static func claim(_ db: any StorageConnection, sessionID: String, instance: String) throws -> String {
        try db.execute("""
            INSERT INTO "_SignalRoom" (sessionID, owner) VALUES (?, ?)
            ON CONFLICT (sessionID) DO UPDATE SET owner = excluded.owner, claimedAt = now()
            WHERE NOT EXISTS (SELECT 1 FROM "_Instance" i WHERE i.id = "_SignalRoom".owner AND \(alive("i")))
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
            SELECT i.id FROM "_Instance" i WHERE \(alive("i"))
            """, [Double(deadAfterSeconds)]))
    }

    /// Forgets instances dead for a minute and rooms of sessions that have ended.
    static func prune(_ db: any StorageConnection) throws {
        try db.execute(#"DELETE FROM "_Instance" WHERE lastSeen < now() - interval '1 minute'"#)
        try db.execute(#"DELETE FROM "_SignalRoom" WHERE sessionID NOT IN (SELECT sessionID FROM "_CallSession")"#)
    }
}
