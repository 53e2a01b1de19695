import Logging
import PostgresNIO
import Synchronization

/// The fleet engine: every instance keeps its rows in one PostgreSQL database (`database_url`), so any
/// instance behind a load balancer answers any request. A few writer lanes and a few reader lanes, each its
/// own connection on its own queue; serializable isolation (with retries) orders concurrent writes, from
/// this instance's lanes and from other instances alike. A commit is acknowledged only after PostgreSQL
/// reports it durable (`synchronous_commit` is left at its default, `on`).
final class PostgresStorage: Sendable {
    let settings: PostgresSettings
    private let writers: [PostgresLane]
    private let readers: [PostgresLane]
    private let nextReader = Atomic<Int>(0)
    private let nextWriter = Atomic<Int>(0)

    /// Connections per instance: these lanes, the bus's two, and its listener.
    static let readerCount = 2
    static let writerCount = 2

    init(settings: PostgresSettings, logger: Logger) async throws {
        self.settings = settings
        writers = (1...Self.writerCount).map { PostgresLane(name: "writer-\($0)", mode: .write, settings: settings, logger: logger) }
        readers = (1...Self.readerCount).map { PostgresLane(name: "reader-\($0)", mode: .read, settings: settings, logger: logger) }
        let migrationLane = PostgresLane(name: "migrate", mode: .write, settings: settings.withSchema("public"), logger: logger)
        defer { migrationLane.close() }
        let schema = settings.schema
        let ran = try await migrationLane.runWithoutTransaction { connection in
            try PostgresMigrations.migrate(connection, schema: schema, logger: logger)
        }
        let fsync = try await migrationLane.runWithoutTransaction { connection in
            try PostgresTransaction(connection: connection, logger: logger).value(String.self, "SHOW fsync")
        }
        if fsync != "on" {
            logger.warning("PostgreSQL runs with fsync off: acknowledged writes can be lost in a power cut",
                           metadata: ["database": "\(settings.redactedURL)"])
        }
        if !ran.isEmpty {
            logger.info("database migrated", metadata: ["database": "\(settings.redactedURL)", "steps": "\(ran)"])
        }
    }

    func read<T: Sendable>(_ body: @Sendable (any StorageConnection) throws -> T) async throws -> T {
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % readers.count
        return try await readers[index].run(body)
    }

    func write<T: Sendable>(_ body: @Sendable (any StorageConnection) throws -> T) async throws -> T {
        let index = nextWriter.wrappingAdd(1, ordering: .relaxed).oldValue % writers.count
        return try await writers[index].run(body)
    }
}

extension PostgresSettings {
    func withSchema(_ schema: String) -> PostgresSettings {
        var copy = self
        copy.schema = schema
        return copy
    }
}
