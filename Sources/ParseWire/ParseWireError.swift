/// Why a Parse response, LiveQuery frame or signaling frame was rejected. Every decoder in this module throws
/// only this type, so callers can tell a server-reported error from a malformed body.
public enum ParseWireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with one of its error envelopes (also when it came with HTTP 200).
    case server(ParseError)
    /// The body is not JSON (or not UTF-8, truncated, too deeply nested).
    case notJSON(String)
    /// The body is larger than the decoder accepts.
    case tooLarge(bytes: Int, limit: Int)
    /// A `results` array holds more rows than the decoder accepts.
    case tooManyResults(count: Int, limit: Int)
    /// A required key is absent. `path` is dot-separated, e.g. `results.3.objectId`.
    case missingField(path: String)
    /// A required key is present but `null`.
    case nullField(path: String)
    /// A value has the wrong JSON type.
    case wrongType(path: String, expected: String)
    /// A date string is not ISO-8601 UTC (`YYYY-MM-DDTHH:MM:SS[.mmm]Z`).
    case invalidDate(path: String, value: String)
    /// A `{"__type":…}` value is not the expected type or misses its members.
    case malformedTypedValue(path: String, expected: String)
    /// A GeoPoint outside latitude [-90, 90] / longitude [-180, 180], or not finite.
    case geoPointOutOfRange(latitude: Double, longitude: Double)
    /// A value is well-typed but not allowed (unknown op, negative requestId, unknown enum string…).
    case invalidValue(path: String, reason: String)

    public var description: String {
        switch self {
        case .server(let error): return error.description
        case .notJSON(let detail): return "not JSON: \(detail)"
        case .tooLarge(let bytes, let limit): return "body of \(bytes) bytes exceeds the \(limit)-byte limit"
        case .tooManyResults(let count, let limit): return "\(count) results exceed the limit of \(limit)"
        case .missingField(let path): return "missing field \(path)"
        case .nullField(let path): return "field \(path) is null"
        case .wrongType(let path, let expected): return "field \(path) is not \(expected)"
        case .invalidDate(let path, let value): return "field \(path) is not an ISO-8601 date: \(value.prefix(40))"
        case .malformedTypedValue(let path, let expected): return "field \(path) is not a valid \(expected)"
        case .geoPointOutOfRange(let lat, let lon): return "GeoPoint out of range: \(lat), \(lon)"
        case .invalidValue(let path, let reason): return "field \(path): \(reason)"
        }
    }
}

extension ParseWireError {
    /// Maps a Foundation `DecodingError` (from `JSONDecoder`) onto the cases above.
    static func from(_ error: any Error) -> ParseWireError {
        if let wire = error as? ParseWireError { return wire }
        guard let decoding = error as? DecodingError else { return .notJSON(String(describing: error)) }
        switch decoding {
        case .keyNotFound(let key, let context):
            return .missingField(path: codingPathString(context.codingPath + [key]))
        case .valueNotFound(_, let context):
            return .nullField(path: codingPathString(context.codingPath))
        case .typeMismatch(let type, let context):
            return .wrongType(path: codingPathString(context.codingPath), expected: String(describing: type))
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .notJSON(context.debugDescription) }
            return .invalidValue(path: codingPathString(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .notJSON(String(describing: decoding))
        }
    }
}

/// `results.3.objectId` style rendering of a coding path.
func codingPathString(_ path: [any CodingKey]) -> String {
    path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
}
