import Foundation

/// Any JSON value. Used for `where` clauses, frame envelopes and fields this module does not model, so that
/// frames can be inspected key by key and rejected with a precise error instead of a generic decode failure.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Double.self) { self = .number(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([JSONValue].self) { self = .array(value); return }
        if let value = try? container.decode([String: JSONValue].self) { self = .object(value); return }
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

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

    /// A number that is a whole value representable as `Int` (JSON has no integer type).
    public var integerValue: Int? {
        guard let number = numberValue, number.rounded() == number, abs(number) < 9.0e15 else { return nil }
        return Int(number)
    }

    /// Parses `bytes` as one JSON value; rejects bodies over `limit` bytes before parsing.
    public static func parse(_ bytes: some Collection<UInt8>, limit: Int) throws(ParseWireError) -> JSONValue {
        guard bytes.count <= limit else { throw .tooLarge(bytes: bytes.count, limit: limit) }
        return try JSONValueParser.parse(Array(bytes))
    }

    /// Compact JSON text with sorted keys (stable output for tests and idempotent retries).
    public func jsonText() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// `jsonText()` as UTF-8 bytes.
    public func jsonBytes() -> [UInt8] {
        JSONValueWriter.write(self)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}

/// The one JSON encoder configuration used for every body and frame this module writes.
enum WireJSON {
    static func encode(_ value: JSONValue) -> Data {
        Data(JSONValueWriter.write(value))
    }

    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            // Only non-finite Doubles fail to encode; every wire type rejects them at construction.
            fatalError("ParseWire: unencodable value \(value): \(error)")
        }
    }
}
