/// How Parse values compare in queries and sorts. Dates compare as instants whether they arrive typed
/// (`{"__type":"Date"}`) or as the plain ISO strings of `createdAt`/`updatedAt`; pointers compare by class
/// and id; numbers, strings and booleans as themselves. Values of different kinds never compare as
/// ordered (`$lt` is false), and sort by kind: missing/null < boolean < number < string < date < other.
enum ValueComparison {
    private enum Scalar: Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case date(Int64)
        case other(JSONValue)

        var rank: Int {
            switch self {
            case .null: 0
            case .bool: 1
            case .number: 2
            case .string: 3
            case .date: 4
            case .other: 5
            }
        }
    }

    private static func scalar(_ value: JSONValue?) -> Scalar {
        switch value {
        case nil, .null?: return .null
        case .bool(let flag)?: return .bool(flag)
        case .number(let number)?: return .number(number)
        case .string(let text)?: return .string(text)
        case .some(let other):
            if other.parseType == "Date", let iso = other["iso"]?.stringValue, let millis = ParseTimestamp.parse(iso) {
                return .date(millis)
            }
            return .other(other)
        }
    }

    /// Brings a string and a date to the same kind when the string is an ISO timestamp.
    private static func aligned(_ a: Scalar, _ b: Scalar) -> (Scalar, Scalar) {
        switch (a, b) {
        case (.string(let text), .date):
            if let millis = ParseTimestamp.parse(text) { return (.date(millis), b) }
        case (.date, .string(let text)):
            if let millis = ParseTimestamp.parse(text) { return (a, .date(millis)) }
        default: break
        }
        return (a, b)
    }

    /// Equality as `{"field": value}` tests it (without the array-membership rule, see `QueryMatcher`).
    static func equal(_ stored: JSONValue?, _ query: JSONValue) -> Bool {
        let (a, b) = aligned(scalar(stored), scalar(query))
        if case .other(let left) = a, case .other(let right) = b, left.parseType == "Pointer",
           right.parseType == "Pointer" {
            return left["objectId"] == right["objectId"] && left["className"] == right["className"]
        }
        return a == b
    }

    /// The order of a stored value relative to a query value, or nil when they are not comparable.
    static func order(_ stored: JSONValue?, _ query: JSONValue) -> Ordering? {
        let (a, b) = aligned(scalar(stored), scalar(query))
        switch (a, b) {
        case (.number(let x), .number(let y)): return order(x, y)
        case (.string(let x), .string(let y)): return order(x, y)
        case (.date(let x), .date(let y)): return order(x, y)
        case (.bool(let x), .bool(let y)): return order(x ? 1 : 0, y ? 1 : 0)
        default: return nil
        }
    }

    /// A total order for sorting results.
    static func sortOrder(_ a: JSONValue?, _ b: JSONValue?) -> Ordering {
        let (x, y) = aligned(scalar(a), scalar(b))
        if x.rank != y.rank { return x.rank < y.rank ? .ascending : .descending }
        if let ordered = order(a, b ?? .null) { return ordered }
        if case .other(let left) = x, case .other(let right) = y {
            return order(JSONCoding.encodeString(left), JSONCoding.encodeString(right))
        }
        return .same
    }

    private static func order<T: Comparable>(_ x: T, _ y: T) -> Ordering {
        x < y ? .ascending : (x == y ? .same : .descending)
    }
}
