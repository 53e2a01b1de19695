/// Everything a find request asks for besides `where` (parse-wire.md §5): paging, order, projection, count.
struct QueryOptions: Sendable, Equatable {
    struct SortKey: Sendable, Equatable {
        let field: String
        let descending: Bool
    }

    var predicate: QueryPredicate = .matchEverything
    var limit = 100
    var skip = 0
    var order: [SortKey] = []
    /// nil means every field.
    var keys: Set<String>?
    var excludeKeys: Set<String> = []
    var count = false

    /// Parameters a find accepts; anything else is 102 `Invalid parameter for query`.
    static let findParameters: Set<String> = [
        "where", "limit", "skip", "order", "keys", "excludeKeys", "count", "include", "readPreference",
        "includeReadPreference", "subqueryReadPreference", "hint", "explain", "redirectClassNameForKey",
    ]
    /// Parameters a get accepts; anything else is 102 `Improper encode of parameter`.
    static let getParameters: Set<String> = ["keys", "include", "excludeKeys", "readPreference", "includeReadPreference"]

    /// Reads the options from query-string parameters (each `JSON.parse`d when it parses, as parse-server
    /// does) or from a `_method:GET` body.
    init(parameters: [String: JSONValue], defaultLimit: Int, maxLimit: Int?, limits: QueryLimits = QueryLimits())
        throws(ParseError)
    {
        for name in parameters.keys where !Self.findParameters.contains(name) {
            throw .invalidQuery("Invalid parameter for query: \(name)")
        }
        if let clause = parameters["where"] {
            predicate = try QueryParser.parse(Self.decodedIfText(clause, name: "where"), limits: limits)
        }
        limit = try Self.count(parameters["limit"], name: "limit") ?? defaultLimit
        if let maxLimit { limit = min(limit, maxLimit) }
        skip = try Self.count(parameters["skip"], name: "skip") ?? 0
        if let text = parameters["order"] {
            order = try Self.names(text, name: "order").map { key in
                key.hasPrefix("-") ? SortKey(field: String(key.dropFirst()), descending: true)
                    : SortKey(field: key, descending: false)
            }
            for key in order where !(FieldName.builtIn.contains(key.field) || FieldName.isValid(key.field)) {
                throw .invalidKeyName("Invalid field name: \(key.field).")
            }
        }
        if let text = parameters["keys"] { keys = Set(try Self.names(text, name: "keys")) }
        if let text = parameters["excludeKeys"] { excludeKeys = Set(try Self.names(text, name: "excludeKeys")) }
        count = Self.truthy(parameters["count"])
    }

    init(projectionParameters parameters: [String: JSONValue]) throws(ParseError) {
        for name in parameters.keys where !Self.getParameters.contains(name) {
            throw .invalidQuery("Improper encode of parameter")
        }
        if let text = parameters["keys"] { keys = Set(try Self.names(text, name: "keys")) }
        if let text = parameters["excludeKeys"] { excludeKeys = Set(try Self.names(text, name: "excludeKeys")) }
    }

    /// `where` sent as text in a query string arrives already parsed when it was JSON; text left over
    /// was not JSON.
    private static func decodedIfText(_ value: JSONValue, name: String) throws(ParseError) -> JSONValue {
        guard case .string(let text) = value else { return value }
        do {
            return try JSONCoding.decode(text)
        } catch {
            throw .invalidJSON("Invalid JSON in \(name): \(error.message)")
        }
    }

    private static func count(_ value: JSONValue?, name: String) throws(ParseError) -> Int? {
        guard let value else { return nil }
        let number = value.integerValue ?? value.stringValue.flatMap { Int($0) }
        guard let number, number >= 0 else { throw .invalidQuery("Invalid parameter for query: \(name)") }
        return number
    }

    /// `a,b,c` (or a JSON array of names, as some clients send in `_method:GET` bodies).
    private static func names(_ value: JSONValue, name: String) throws(ParseError) -> [String] {
        if let text = value.stringValue {
            return text.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        }
        if let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) {
            return items.compactMap(\.stringValue)
        }
        throw .invalidQuery("Invalid parameter for query: \(name)")
    }

    private static func truthy(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag)?: flag
        case .number(let number)?: number != 0
        case .string(let text)?: !text.isEmpty && text != "0" && text != "false"
        default: false
        }
    }
}
