import GRDB

/// The server's SQLite database: a GRDB `DatabasePool` in WAL mode with `synchronous = FULL`, so a
/// committed session or token write survives a power cut or SIGKILL (SQLite docs: WAL + NORMAL may lose the
/// last transaction; FULL syncs the WAL on every commit). Readers run concurrently with the one writer.
public final class ServerDatabase: Sendable {
    let pool: DatabasePool
    public let path: String

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "intercom-server"
        pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB switches the writer to WAL and then sets `synchronous = NORMAL` (Database.setUpWALMode), after
        // any `prepareDatabase` hook, so FULL is set here, on the pool's one writer connection.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        self.path = path
        try ServerMigrations.migrator.migrate(pool)
    }

    /// `PRAGMA integrity_check`: "ok" for a sound file, else SQLite's list of problems.
    public func integrityCheck() async throws -> String {
        try await pool.read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n")
        }
    }

    /// The value of `PRAGMA synchronous` (2 = FULL) and `journal_mode` on a writer connection.
    public func durabilitySettings() async throws -> (synchronous: Int, journalMode: String) {
        try await pool.write { db in
            (try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1,
             try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "")
        }
    }
}
