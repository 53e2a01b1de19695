import ParseWire

/// Parse's timestamp text as the server stores it: integer milliseconds since 1970, which SQLite compares
/// and indexes. The text itself is ParseWire's `ISO8601Millis` (one owner for agent and server); the server
/// reads clients' dates leniently (a space for `T`, `+00:00`, any fraction length), as parse-server does.
public enum ParseTimestamp {
    public static func format(milliseconds: Int64) -> String { ISO8601Millis.format(milliseconds: milliseconds) }

    public static func parse(_ text: String) -> Int64? { ISO8601Millis.milliseconds(from: text, .lenient) }

    /// Parse's typed date, `{"__type":"Date","iso":"…"}`.
    public static func typedDate(milliseconds: Int64) -> JSONValue {
        .object(["__type": "Date", "iso": .string(format(milliseconds: milliseconds))])
    }
}
