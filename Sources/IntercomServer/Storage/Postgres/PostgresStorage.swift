import Logging
import PostgresNIO
import Synchronization

/// The fleet engine: every instance keeps its rows in one PostgreSQL database (`database_url`), so any
/// instance behind a load balancer answers any request. One writer lane (writes are serialized within an
/// instance, as SQLite's are; serializable isolation orders them across instances) and a few reader
/// lanes, each its own connection on its own queue. A commit is acknowledged only after PostgreSQL
/// reports it durable (`synchronous_commit` is left at its default, `on`).
final class PostgresStorage: Sendable {
    let settings: PostgresSettings
    private let writer: PostgresLane
    private let readers: [PostgresLane]
    private let nextReader = Atomic<Int>(0)

    static let readerCount = 3

    init(settings: PostgresSettings, logger: Logger) async throws {
        self.settings = settings
        writer = PostgresLane(name: "writer", settings: settings, logger: logger)
        readers = (1...Self.readerCount).map { PostgresLane(name: "reader-\($0)", settings: settings, logger: logger) }
        let migrationLane = PostgresLane(name: "migrate", settings: settings.withSchema("public"), logger: logger)
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
        return try await readers[index].run(.read, body)
    }

    func write<T: Sendable>(_ body: @Sendable (any StorageConnection) throws -> T) async throws -> T {
        try await writer.run(.write, body)
    }

    func close() {
        writer.close()
        readers.forEach { $0.close() }
    }
}

extension PostgresSettings {
    func withSchema(_ schema: String) -> PostgresSettings {
        var copy = self
        copy.schema = schema
        return copy
    }
}
