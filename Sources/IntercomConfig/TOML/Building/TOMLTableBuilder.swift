/// A table under construction. A reference type so the document reader can hold the current
/// `[section]` while the tree grows around it; `freeze()` turns the tree into `TOMLTable` values.
final class TOMLTableBuilder {
    /// How a table came to exist, which decides what may later extend or redefine it (TOML 1.0 "Table").
    enum Origin {
        case root
        /// Created as the parent of a header (`a` for `[a.b]`); its own `[a]` header may still follow.
        case implicit
        /// Defined by its own `[a]` header.
        case header
        /// Created by a dotted key (`a.b = 1` creates `a`).
        case dotted
        /// An inline table `{ … }` being read; frozen into a value once its `}` is reached.
        case inline
        /// One `[[a]]` element.
        case arrayElement
    }

    enum Entry {
        /// A finished value: scalar, array or inline table. Never extended afterwards.
        case value(TOMLNode)
        case table(TOMLTableBuilder)
        case arrayOfTables(TOMLArrayOfTablesBuilder)
    }

    var origin: Origin
    /// Tables between the root and this one (an array of tables counts as a level of its own).
    let depth: Int
    /// The header or `{` that defined the table; becomes `TOMLTable.location`.
    var headerLocation: SourceLocation?
    /// Becomes `TOMLNode.location` of the table's node.
    var nodeLocation: SourceLocation
    var keyLocation: SourceLocation?
    private var keys: [String] = []
    private var entries: [String: Entry] = [:]

    init(
        origin: Origin,
        depth: Int,
        nodeLocation: SourceLocation,
        keyLocation: SourceLocation? = nil,
        headerLocation: SourceLocation? = nil
    ) {
        self.origin = origin
        self.depth = depth
        self.nodeLocation = nodeLocation
        self.keyLocation = keyLocation
        self.headerLocation = headerLocation
    }

    subscript(name: String) -> Entry? { entries[name] }

    /// Adds a key that is not present yet (callers check for duplicates to report them).
    func insert(_ name: String, _ entry: Entry) {
        if entries.updateValue(entry, forKey: name) == nil {
            keys.append(name)
        }
    }

    /// Creates and inserts a sub-table, refusing to nest deeper than the scanner's limit.
    func makeChild(
        _ name: String,
        origin: Origin,
        at location: SourceLocation,
        headerLocation: SourceLocation? = nil
    ) throws(TOMLParseError) -> TOMLTableBuilder {
        try Self.checkDepth(depth + 1, at: location)
        let child = TOMLTableBuilder(
            origin: origin,
            depth: depth + 1,
            nodeLocation: headerLocation ?? location,
            keyLocation: location,
            headerLocation: headerLocation
        )
        insert(name, .table(child))
        return child
    }

    static func checkDepth(_ depth: Int, at location: SourceLocation) throws(TOMLParseError) {
        guard depth <= TOMLScanner.maximumNestingDepth else {
            throw TOMLParseError(
                message: "tables are nested too deeply (limit \(TOMLScanner.maximumNestingDepth))",
                location: location
            )
        }
    }

    /// Where an entry was first written, for "first defined at …".
    static func definitionLocation(of entry: Entry) -> SourceLocation {
        switch entry {
        case .value(let node): node.keyLocation ?? node.location
        case .table(let table): table.keyLocation ?? table.nodeLocation
        case .arrayOfTables(let array): array.keyLocation
        }
    }

    /// The finished value. Recursion is bounded by `maximumNestingDepth`.
    func freeze() -> TOMLTable {
        var table = TOMLTable()
        table.location = headerLocation
        for name in keys {
            guard let entry = entries[name] else { continue }
            switch entry {
            case .value(let node):
                table.set(name, node)
            case .table(let child):
                table.set(name, child.frozenNode(keyLocation: child.keyLocation))
            case .arrayOfTables(let array):
                let elements = array.elements.map { $0.frozenNode(keyLocation: nil) }
                let node = TOMLNode(value: .array(elements), location: array.location, keyLocation: array.keyLocation)
                table.set(name, node)
            }
        }
        return table
    }

    private func frozenNode(keyLocation: SourceLocation?) -> TOMLNode {
        TOMLNode(value: .table(freeze()), location: nodeLocation, keyLocation: keyLocation)
    }
}
