import Foundation
import GRDB

/// The one-site engine: a GRDB `DatabasePool` in WAL mode with `synchronous = FULL`, so a committed
/// session or token write survives a power cut or SIGKILL (SQLite docs: WAL + NORMAL may lose the last
/// transaction; FULL syncs the WAL on every commit). Readers run concurrently with the one writer, each
/// on GRDB's own dispatch queues.
final class SQLiteStorage: Sendable {
    let pool: DatabasePool
    let path: String

    init(path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "intercom-server"
        pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB switches the writer to WAL and then sets `synchronous = NORMAL` (Database.setUpWALMode), after
        // any `prepareDatabase` hook, so FULL is set here, on the pool's one writer connection.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        self.path = path
        try SQLiteMigrations.migrator.migrate(pool)
    }

    func read<T: Sendable>(_ body: @Sendable (any StorageConnection) throws -> T) async throws -> T {
        try await pool.read { db in try SQLiteConnection.run(db, body) }
    }

    func write<T: Sendable>(_ body: @Sendable (any StorageConnection) throws -> T) async throws -> T {
        try await pool.write { db in try SQLiteConnection.run(db, body) }
    }
}

/// A GRDB `Database` inside one of its transactions, as the stores see it.
struct SQLiteConnection: StorageConnection {
    let db: Database

    var dialect: SQLDialect { .sqlite }

    /// Runs `body` on `db`, with SQLite's unique-constraint failure as `StorageError.uniqueViolation`.
    static func run<T>(_ db: Database, _ body: (any StorageConnection) throws -> T) throws -> T {
        do {
            return try body(SQLiteConnection(db: db))
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StorageError.uniqueViolation(error.message ?? "\(error)")
        }
    }

    func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try db.execute(sql: sql, arguments: Self.statementArguments(arguments))
        return db.changesCount
    }

    func rows(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try forEachRow(sql, arguments) { rows.append($0) }
        return rows
    }

    /// Streams rows from a GRDB cursor, so `body` can stop a long scan early.
    func forEachRow(_ sql: String, _ arguments: SQLArguments, _ body: (SQLRow) throws -> Void) throws {
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: Self.statementArguments(arguments))
        while let row = try cursor.next() {
            try body(SQLRow(columns: row.columnNames.map { name in (name, Self.value(row[name] as DatabaseValue)) }))
        }
    }

    func tryTransactionLock(_ name: String) throws -> Bool {
        true
    }

    private static func statementArguments(_ arguments: SQLArguments) -> StatementArguments {
        StatementArguments(arguments.values.map { value -> DatabaseValue in
            switch value {
            case .null: .null
            case .integer(let number): number.databaseValue
            case .real(let number): number.databaseValue
            case .text(let text): text.databaseValue
            case .blob(let bytes): Data(bytes).databaseValue
            }
        })
    }

    private static func value(_ stored: DatabaseValue) -> SQLValue {
        switch stored.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob(let data): .blob([UInt8](data))
        }
    }
}
