/// A TOML table: keys in document order, each with a located value.
public struct TOMLTable: Sendable, Equatable {
    /// Keys in insertion (document) order.
    public private(set) var keys: [String] = []
    private var entries: [String: TOMLNode] = [:]
    /// The `[a.b]` header or the `{` of an inline table; nil for the root and for implicit tables.
    public var location: SourceLocation?

    public init() {}

    public subscript(key: String) -> TOMLNode? { entries[key] }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Inserts or replaces; a replaced key keeps the position of its first insert.
    public mutating func set(_ key: String, _ node: TOMLNode) {
        if entries.updateValue(node, forKey: key) == nil {
            keys.append(key)
        }
    }

    public mutating func remove(_ key: String) {
        if entries.removeValue(forKey: key) != nil {
            keys.removeAll { $0 == key }
        }
    }
}
