/// Typed access to one JSON object's members with path-carrying errors; shared by the frame decoders.
struct FrameFields {
    let members: [String: JSONValue]
    let path: String

    init(_ value: JSONValue, path: String) throws(ParseWireError) {
        guard case .object(let members) = value else { throw .wrongType(path: path, expected: "object") }
        self.members = members
        self.path = path
    }

    private func at(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func raw(_ key: String) -> JSONValue? { members[key] }

    func string(_ key: String) throws(ParseWireError) -> String {
        guard let value = members[key] else { throw .missingField(path: at(key)) }
        if value == .null { throw .nullField(path: at(key)) }
        guard case .string(let text) = value else { throw .wrongType(path: at(key), expected: "string") }
        return text
    }

    func nonEmptyString(_ key: String) throws(ParseWireError) -> String {
        let text = try string(key)
        guard !text.isEmpty else { throw .invalidValue(path: at(key), reason: "empty") }
        return text
    }

    func optionalString(_ key: String) throws(ParseWireError) -> String? {
        guard let value = members[key], value != .null else { return nil }
        return try string(key)
    }

    func optionalInt(_ key: String) throws(ParseWireError) -> Int? {
        guard let value = members[key], value != .null else { return nil }
        guard case .number(let number) = value else { throw .wrongType(path: at(key), expected: "integer") }
        guard number.rounded() == number, abs(number) < 9.0e15 else { throw .invalidValue(path: at(key), reason: "not an integer") }
        return Int(number)
    }

    func bool(_ key: String) throws(ParseWireError) -> Bool {
        guard let value = members[key] else { throw .missingField(path: at(key)) }
        guard case .bool(let flag) = value else { throw .wrongType(path: at(key), expected: "boolean") }
        return flag
    }

    func array(_ key: String) throws(ParseWireError) -> [JSONValue] {
        guard let value = members[key] else { throw .missingField(path: at(key)) }
        guard case .array(let items) = value else { throw .wrongType(path: at(key), expected: "array") }
        return items
    }
}
