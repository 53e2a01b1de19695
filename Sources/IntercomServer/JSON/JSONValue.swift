import ParseWire

/// The server reads and writes the same JSON values the agent's wire layer does: one type for both.
public typealias JSONValue = ParseWire.JSONValue

extension JSONValue {
    /// Parse's `__type` tag of a typed value (`Date`, `GeoPoint`, `Pointer`…), if any.
    var parseType: String? {
        self["__type"]?.stringValue
    }
}
