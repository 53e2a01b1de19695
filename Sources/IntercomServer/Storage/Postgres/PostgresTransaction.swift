import Foundation
import Logging
import PostgresNIO

/// One PostgreSQL connection inside a transaction, as the stores see it: `?` marks become `$1…`, values
/// bind in binary, and each statement waits for its reply (the caller is a lane's own thread).
struct PostgresTransaction: StorageConnection {
    let connection: PostgresConnection
    let logger: Logger

    var dialect: SQLDialect { .postgres }

    @discardableResult
    func execute(_ sql: String, _ arguments: SQLArguments = []) throws -> Int {
        try run(sql, arguments).metadata.rows ?? 0
    }

    func rows(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow] {
        try run(sql, arguments).rows.map { row in
            SQLRow(columns: row.map { cell in (cell.columnName, Self.value(cell)) })
        }
    }

    /// `pg_try_advisory_xact_lock`, keyed by the name's hash within this server's schema.
    func tryTransactionLock(_ name: String) throws -> Bool {
        try value(Bool.self, "SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || ':' || ?))", [name]) ?? false
    }

    private func run(_ sql: String, _ arguments: SQLArguments) throws -> PostgresQueryResult {
        var binds = PostgresBindings(capacity: arguments.values.count)
        for value in arguments.values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let number): binds.append(number)
            case .real(let number): binds.append(number)
            case .text(let text): binds.append(text)
            case .blob(let bytes): binds.append(ByteBuffer(bytes: bytes))
            }
        }
        let query = PostgresQuery(unsafeSQL: Self.numberedPlaceholders(sql), binds: binds)
        do {
            return try connection.query(query, logger: logger).wait()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw StorageError.uniqueViolation(error.serverInfo?[.message] ?? "23505")
        }
    }

    /// SQLSTATE 40001 (serialization_failure) or 40P01 (deadlock_detected): the transaction may be retried.
    static func isSerializationFailure(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40001" || state == "40P01"
    }

    /// `?` → `$1`, `$2`, … outside quoted literals and identifiers.
    static func numberedPlaceholders(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 8)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                output.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                output.append(character)
            } else if character == "?" {
                number += 1
                output += "$\(number)"
            } else {
                output.append(character)
            }
        }
        return output
    }

    private static func value(_ cell: PostgresCell) -> SQLValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
            case .float4, .float8: return .real(try cell.decode(Double.self))
            case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .bytea: return .blob(Array(try cell.decode(ByteBuffer.self).readableBytesView))
            default: return .text(try cell.decode(String.self))
            }
        } catch {
            // A column type the stores never read: a schema mismatch, reported by SQLRow's typed lookup.
            return .null
        }
    }
}
