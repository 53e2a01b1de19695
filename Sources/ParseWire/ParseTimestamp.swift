import Foundation

/// A top-level `createdAt`/`updatedAt` value: a plain ISO-8601 string, as parse-server writes them.
public struct ParseTimestamp: Sendable, Hashable, Codable {
    public var date: Date

    public init(_ date: Date) { self.date = date }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = ISO8601Millis.parse(text) else {
            throw ParseWireError.invalidDate(path: codingPathString(decoder.codingPath), value: text)
        }
        self.date = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(ISO8601Millis.format(date))
    }
}
