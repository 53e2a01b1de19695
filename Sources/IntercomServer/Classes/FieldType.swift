/// Parse schema types (`SchemaController.getType`), inferred from a value on its first write.
enum FieldType: String, Sendable, Equatable {
    case string = "String"
    case number = "Number"
    case boolean = "Boolean"
    case array = "Array"
    case object = "Object"
    case date = "Date"
    case pointer = "Pointer"
    case relation = "Relation"
    case geoPoint = "GeoPoint"
    case bytes = "Bytes"
    case file = "File"
    case polygon = "Polygon"

    /// The type of `value`, nil for `null` (which adds no field). Typed objects with an unknown `__type`
    /// are plain objects.
    static func of(_ value: JSONValue) -> FieldType? {
        switch value {
        case .null: return nil
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object:
            switch value.parseType {
            case "Date": return .date
            case "Pointer": return .pointer
            case "Relation": return .relation
            case "GeoPoint": return .geoPoint
            case "Bytes": return .bytes
            case "File": return .file
            case "Polygon": return .polygon
            default: return .object
            }
        }
    }
}
