import GRDB
import Logging

/// Where the server keeps its rows: SQLite in one file for one site (the default), or PostgreSQL shared
/// by several instances (`database_url`). The stores see either through `StorageConnection`; each
/// `read` or `write` is one transaction.
public final class ServerDatabase: Sendable {
    private enum Engine: Sendable {
        case sqlite(SQLiteStorage)
        case postgres(PostgresStorage)
    }

    private let engine: Engine

    /// The SQLite file (nil on PostgreSQL).
    public var path: String? {
        if case .sqlite(let storage) = engine { return storage.path }
        return nil
    }

    /// The engine and where it is, without a password: `sqlite:/var/lib/…` or `postgres://user@host:5432/db`.
    public var location: String {
        switch engine {
        case .sqlite(let storage): "sqlite:" + storage.path
        case .postgres(let storage): storage.settings.redactedURL
        }
    }

    public var isShared: Bool {
        if case .postgres = engine { return true }
        return false
    }

    var postgresSettings: PostgresSettings? {
        if case .postgres(let storage) = engine { return storage.settings }
        return nil
    }

    public init(path: String) throws {
        engine = .sqlite(try SQLiteStorage(path: path))
    }

    public init(postgres settings: PostgresSettings, logger: Logger) async throws {
        engine = .postgres(try await PostgresStorage(settings: settings, logger: logger))
    }

    /// Opens the configured engine: PostgreSQL with `databaseURL`, else the SQLite file.
    static func open(_ configuration: ServerConfiguration, logger: Logger) async throws -> ServerDatabase {
        if let url = configuration.databaseURL {
            return try await ServerDatabase(postgres: try PostgresSettings(url: url), logger: logger)
        }
        return try ServerDatabase(path: configuration.databasePath)
    }

    func read<T: Sendable>(_ body: @Sendable (any StorageConnection) throws -> T) async throws -> T {
        switch engine {
        case .sqlite(let storage): try await storage.read(body)
        case .postgres(let storage): try await storage.read(body)
        }
    }

    func write<T: Sendable>(_ body: @Sendable (any StorageConnection) throws -> T) async throws -> T {
        switch engine {
        case .sqlite(let storage): try await storage.write(body)
        case .postgres(let storage): try await storage.write(body)
        }
    }

    /// One round trip to the engine, for `/health`: nil when it answers, else why not.
    public func probe() async -> String? {
        do {
            let answer = try await read { db in try db.value(Int.self, "SELECT 1") }
            return answer == 1 ? nil : "SELECT 1 answered \(answer.map(String.init) ?? "nothing")"
        } catch {
            return String(describing: error)
        }
    }

    /// `PRAGMA integrity_check` on SQLite: "ok" for a sound file, else SQLite's list of problems.
    public func integrityCheck() async throws -> String {
        guard case .sqlite(let storage) = engine else { return "ok (PostgreSQL checks its own pages)" }
        return try await storage.pool.read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n")
        }
    }

    /// The value of `PRAGMA synchronous` (2 = FULL) and `journal_mode` on a SQLite writer connection.
    public func durabilitySettings() async throws -> (synchronous: Int, journalMode: String) {
        guard case .sqlite(let storage) = engine else { return (-1, "postgres") }
        return try await storage.pool.write { db in
            (try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1,
             try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "")
        }
    }
}
