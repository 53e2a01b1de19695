extension JSONValue {
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member `key` of an object, or nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A number that is a whole value representable as `Int` (JSON has no integer type).
    public var integerValue: Int? {
        guard let number = numberValue, number.rounded() == number, abs(number) < 9.0e15 else { return nil }
        return Int(number)
    }

    /// Parse's `__type` tag of a typed value (`Date`, `GeoPoint`, `Pointer`…), if any.
    var parseType: String? {
        self["__type"]?.stringValue
    }
}
