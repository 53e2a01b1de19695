/// The SQL statements the stores run inside one transaction, whichever engine holds the rows. Each
/// engine runs a transaction's closure synchronously on a thread of its own, never on the Swift pool.
public protocol StorageConnection {
    var dialect: SQLDialect { get }

    /// Runs a statement and returns the number of rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int

    /// Runs a query and returns all its rows.
    func rows(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow]

    /// Runs a query and hands each row to `body` as it is read (an engine that streams rows lets `body`
    /// stop a long query early by throwing).
    func forEachRow(_ sql: String, _ arguments: SQLArguments, _ body: (SQLRow) throws -> Void) throws

    /// Takes the lock `name` until this transaction ends, if no other transaction (of any instance) holds
    /// it; false if one does. SQLite has one writer, so there it is always true.
    func tryTransactionLock(_ name: String) throws -> Bool
}

extension StorageConnection {
    public func forEachRow(_ sql: String, _ arguments: SQLArguments, _ body: (SQLRow) throws -> Void) throws {
        for row in try rows(sql, arguments) { try body(row) }
    }

    @discardableResult
    func execute(_ sql: String) throws -> Int {
        try execute(sql, [])
    }

    func rows(_ sql: String) throws -> [SQLRow] {
        try rows(sql, [])
    }

    func row(_ sql: String, _ arguments: SQLArguments = []) throws -> SQLRow? {
        try rows(sql, arguments).first
    }

    /// The first column of the first row as `T`, nil when there is no row or it holds NULL.
    func value<T: SQLDecodable>(_ type: T.Type, _ sql: String, _ arguments: SQLArguments = []) throws -> T? {
        try rows(sql, arguments).first.flatMap { T(sqlValue: $0.single) }
    }

    /// The first column of every row as `T` (rows holding NULL or another type are left out).
    func values<T: SQLDecodable>(_ type: T.Type, _ sql: String, _ arguments: SQLArguments = []) throws -> [T] {
        try rows(sql, arguments).compactMap { T(sqlValue: $0.single) }
    }
}

/// A storage failure, with the statement or call that failed.
public enum StorageError: Error, CustomStringConvertible {
    /// A UNIQUE constraint refused the write (SQLite `SQLITE_CONSTRAINT_UNIQUE`, PostgreSQL SQLSTATE 23505).
    case uniqueViolation(String)
    /// The engine refused the statement or lost its connection.
    case engine(call: String, message: String)
    /// `database_url` could not be read.
    case badURL(String)

    public var description: String {
        switch self {
        case .uniqueViolation(let detail): "unique constraint failed: \(detail)"
        case .engine(let call, let message): "\(call): \(message)"
        case .badURL(let reason): "database_url: \(reason)"
        }
    }
}
