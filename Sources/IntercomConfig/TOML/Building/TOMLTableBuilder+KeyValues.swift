/// `key = value` and `a.b.c = value` inside a section or an inline table (TOML 1.0 "Keys": dotted
/// keys create and define a table for each part before the last).
extension TOMLTableBuilder {
    func assign(_ key: TOMLKey, _ node: TOMLNode) throws(TOMLParseError) {
        var table = self
        for (offset, part) in key.parents.enumerated() {
            table = try table.dottedChild(part, path: key.display(prefix: offset + 1))
        }
        let last = key.last
        if let existing = table[last.name] {
            throw TOMLConflict.duplicateKey(key.display, existing: existing, at: last.location)
        }
        table.insert(last.name, .value(node))
    }

    /// The table a dotted key part walks into. Dotted keys may extend tables they created themselves
    /// (and still undefined parents of headers), but not tables defined by a header, arrays of tables
    /// or inline tables: see toml-lang/toml issue 846.
    private func dottedChild(_ part: TOMLKey.Part, path: String) throws(TOMLParseError) -> TOMLTableBuilder {
        guard let existing = self[part.name] else {
            return try makeChild(part.name, origin: .dotted, at: part.location)
        }
        switch existing {
        case .table(let child) where child.origin == .dotted:
            return child
        case .table(let child) where child.origin == .implicit:
            // Now defined by these dotted keys, so a later `[…]` header for it is a redefinition.
            child.origin = .dotted
            child.nodeLocation = part.location
            child.keyLocation = part.location
            return child
        case .table:
            throw TOMLParseError(
                message: "cannot extend table \"\(path)\" with a dotted key; it was defined by a header"
                    + TOMLConflict.firstDefined(existing),
                location: part.location
            )
        case .arrayOfTables:
            throw TOMLParseError(
                message: "cannot extend array of tables \"\(path)\" with a dotted key"
                    + TOMLConflict.firstDefined(existing),
                location: part.location
            )
        case .value(let node):
            throw TOMLConflict.notATable(path, node: node, at: part.location)
        }
    }
}
