import Foundation

/// One value crossing the storage seam, in the types both engines share: SQLite's storage classes, which
/// PostgreSQL's `bigint`, `double precision`, `text` and `bytea` columns map onto one to one.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift value that binds as a statement argument.
public protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

/// A Swift value a result column decodes into; nil when the column holds another type.
public protocol SQLDecodable {
    init?(sqlValue: SQLValue)
}

extension String: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .text(self) }
    public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue else { return nil }
        self = text
    }
}

extension Int64: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .integer(self) }
    public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Int: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = Int(value)
    }
}

extension Double: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .real(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

/// Booleans are integers 0 and 1 in SQLite; PostgreSQL's `boolean` results arrive as the same.
extension Bool: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = value != 0
    }
}

extension Data: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { .blob([UInt8](self)) }
    public init?(sqlValue: SQLValue) {
        guard case .blob(let bytes) = sqlValue else { return nil }
        self = Data(bytes)
    }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }
}

/// Statement arguments in the order of the statement's `?` marks; `nil` binds NULL.
public struct SQLArguments: Sendable, ExpressibleByArrayLiteral {
    public private(set) var values: [SQLValue]

    public init(_ values: [SQLValue]) {
        self.values = values
    }

    public init(arrayLiteral elements: (any SQLBindable)?...) {
        values = elements.map { $0?.sqlValue ?? .null }
    }
}

/// One result row, looked up by column name without regard to case (PostgreSQL folds unquoted names to
/// lower case; SQLite keeps the declared case).
public struct SQLRow: Sendable {
    private let values: [String: SQLValue]

    public init(columns: [(name: String, value: SQLValue)]) {
        var values: [String: SQLValue] = [:]
        for column in columns { values[column.name.lowercased()] = column.value }
        self.values = values
    }

    public func value(_ column: String) -> SQLValue {
        values[column.lowercased()] ?? .null
    }

    /// The column as `T`; a missing column or another type is a programmer error (a schema mismatch).
    public subscript<T: SQLDecodable>(_ column: String) -> T {
        guard let decoded = T(sqlValue: value(column)) else {
            fatalError("column \(column) holds \(value(column)), not \(T.self)")
        }
        return decoded
    }

    /// The column as `T`, nil for NULL.
    public subscript<T: SQLDecodable>(_ column: String) -> T? {
        let stored = value(column)
        if stored == .null { return nil }
        guard let decoded = T(sqlValue: stored) else {
            fatalError("column \(column) holds \(stored), not \(T.self)")
        }
        return decoded
    }

    /// The first column's value (for `SELECT x` statements).
    var single: SQLValue { values.first?.value ?? .null }
}
