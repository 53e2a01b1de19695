import Foundation

/// A Date-typed field: `{"__type":"Date","iso":"2024-01-01T12:23:45.678Z"}` (parse-wire §4).
public struct ParseDate: Sendable, Hashable, Codable {
    public var date: Date

    public init(_ date: Date) { self.date = date }

    private enum CodingKeys: String, CodingKey { case type = "__type", iso }

    public init(from decoder: any Decoder) throws {
        let path = codingPathString(decoder.codingPath)
        guard let container = try? decoder.container(keyedBy: CodingKeys.self),
              (try? container.decode(String.self, forKey: .type)) == "Date",
              let iso = try? container.decode(String.self, forKey: .iso)
        else { throw ParseWireError.malformedTypedValue(path: path, expected: "Date") }
        guard let date = ISO8601Millis.parse(iso) else { throw ParseWireError.invalidDate(path: path, value: iso) }
        self.date = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("Date", forKey: .type)
        try container.encode(ISO8601Millis.format(date), forKey: .iso)
    }
}
