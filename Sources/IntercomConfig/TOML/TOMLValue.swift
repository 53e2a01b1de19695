/// A TOML 1.0 value. Containers hold `TOMLNode`s so every element keeps its own location.
public indirect enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    /// Offset date-time, local date-time, local date or local time: the raw text, already validated
    /// against TOML 1.0 (RFC 3339 with the TOML relaxations).
    case dateTime(String)
    case array([TOMLNode])
    case table(TOMLTable)

    /// The type's name as used in error messages ("expected an integer, found a string").
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        case .dateTime: "date-time"
        case .array: "array"
        case .table: "table"
        }
    }
}
