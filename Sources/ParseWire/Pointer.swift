/// `{"__type":"Pointer","className":"_User","objectId":"x"}`.
public struct Pointer: Sendable, Hashable, Codable {
    public var className: String
    public var objectId: String

    public init(className: String, objectId: String) {
        self.className = className
        self.objectId = objectId
    }

    private enum CodingKeys: String, CodingKey { case type = "__type", className, objectId }

    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self),
              (try? container.decode(String.self, forKey: .type)) == "Pointer",
              let className = try? container.decode(String.self, forKey: .className),
              let objectId = try? container.decode(String.self, forKey: .objectId),
              !className.isEmpty, !objectId.isEmpty
        else { throw ParseWireError.malformedTypedValue(path: codingPathString(decoder.codingPath), expected: "Pointer") }
        self.init(className: className, objectId: objectId)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("Pointer", forKey: .type)
        try container.encode(className, forKey: .className)
        try container.encode(objectId, forKey: .objectId)
    }
}
