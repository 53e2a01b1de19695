/// Error messages for keys and tables that TOML 1.0 forbids defining twice or extending. Each points
/// at the offending key and names where the earlier definition is.
enum TOMLConflict {
    static func duplicateKey(_ path: String, existing: TOMLTableBuilder.Entry, at location: SourceLocation)
        -> TOMLParseError
    {
        TOMLParseError(message: "duplicate key \"\(path)\"\(firstDefined(existing))", location: location)
    }

    /// A header or dotted key tried to go inside a finished value.
    static func notATable(_ path: String, node: TOMLNode, at location: SourceLocation) -> TOMLParseError {
        let defined = firstDefined(.value(node))
        let message =
            switch node.value {
            case .table: "cannot extend inline table \"\(path)\"\(defined)"
            case .array: "cannot extend array \"\(path)\": it is not an array of tables\(defined)"
            default: "key \"\(path)\" is \(kind(of: node.value)), not a table\(defined)"
            }
        return TOMLParseError(message: message, location: location)
    }

    static func firstDefined(_ entry: TOMLTableBuilder.Entry) -> String {
        " (first defined at \(TOMLTableBuilder.definitionLocation(of: entry).fileAndLine))"
    }

    /// "an integer", "a string", "an inline table" (the only tables stored as finished values).
    static func kind(of value: TOMLValue) -> String {
        if case .table = value { return "an inline table" }
        let name = value.typeName
        return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }
}
