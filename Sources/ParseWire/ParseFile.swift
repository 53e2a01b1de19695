/// A File-typed field, `{"__type":"File","name":…,"url":…}` (parse-wire §4), and the body of the
/// `POST /files/<name>` answer, `{"name","url"}` (parse-server `FilesRouter.createHandler`).
public struct ParseFile: Sendable, Hashable, Codable {
    public var name: String
    public var url: String

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }

    private enum CodingKeys: String, CodingKey { case type = "__type", name, url }

    /// Accepts the upload answer (no `__type`) and the typed field alike.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let type = try container.decodeIfPresent(String.self, forKey: .type), type != "File" {
            throw ParseWireError.malformedTypedValue(path: codingPathString(decoder.codingPath), expected: "File")
        }
        name = try container.decode(String.self, forKey: .name)
        url = try container.decode(String.self, forKey: .url)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("File", forKey: .type)
        try container.encode(name, forKey: .name)
        try container.encode(url, forKey: .url)
    }
}
