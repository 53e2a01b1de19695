/// `[table]` and `[[array.of.tables]]` headers, called on the root table (TOML 1.0 "Table" and
/// "Array of Tables").
extension TOMLTableBuilder {
    /// `[a.b.c]`: defines the table and returns it as the target of the following key/value pairs.
    func defineTable(_ key: TOMLKey, header: SourceLocation) throws(TOMLParseError) -> TOMLTableBuilder {
        let parent = try walkHeaderParents(of: key)
        let last = key.last
        let path = key.display
        guard let existing = parent[last.name] else {
            return try parent.makeChild(last.name, origin: .header, at: last.location, headerLocation: header)
        }
        let message: String
        switch existing {
        case .table(let table) where table.origin == .implicit:
            // `[a.b]` created `a`; `[a]` may still define it, once.
            table.origin = .header
            table.headerLocation = header
            table.nodeLocation = header
            table.keyLocation = last.location
            return table
        case .table(let table) where table.origin == .dotted:
            message = "table [\(path)] was already created by dotted keys\(TOMLConflict.firstDefined(.table(table)))"
        case .table:
            message = "duplicate table [\(path)]\(TOMLConflict.firstDefined(existing))"
        case .arrayOfTables:
            message = "[\(path)] is an array of tables\(TOMLConflict.firstDefined(existing)); use [[\(path)]]"
        case .value(let node):
            message = "cannot define table [\(path)]: key \"\(path)\" is already "
                + TOMLConflict.kind(of: node.value) + TOMLConflict.firstDefined(existing)
        }
        throw TOMLParseError(message: message, location: last.location)
    }

    /// `[[a.b]]`: appends a table to the array and returns it.
    func appendArrayTable(_ key: TOMLKey, header: SourceLocation) throws(TOMLParseError) -> TOMLTableBuilder {
        let parent = try walkHeaderParents(of: key)
        let last = key.last
        let path = key.display
        try Self.checkDepth(parent.depth + 2, at: last.location)
        let element = TOMLTableBuilder(
            origin: .arrayElement,
            depth: parent.depth + 2,
            nodeLocation: header,
            headerLocation: header
        )
        guard let existing = parent[last.name] else {
            let array = TOMLArrayOfTablesBuilder(first: element, location: header, keyLocation: last.location)
            parent.insert(last.name, .arrayOfTables(array))
            return element
        }
        let message: String
        switch existing {
        case .arrayOfTables(let array):
            array.append(element)
            return element
        case .table:
            message = "cannot define [[\(path)]]: \"\(path)\" is already a table\(TOMLConflict.firstDefined(existing))"
        case .value(let node) where Self.isArray(node.value):
            message = "cannot append to array \"\(path)\": it is not an array of tables"
                + TOMLConflict.firstDefined(existing)
        case .value(let node):
            message = "cannot define [[\(path)]]: key \"\(path)\" is already "
                + TOMLConflict.kind(of: node.value) + TOMLConflict.firstDefined(existing)
        }
        throw TOMLParseError(message: message, location: last.location)
    }

    private static func isArray(_ value: TOMLValue) -> Bool {
        if case .array = value { return true }
        return false
    }

    /// Walks (creating implicit tables as needed) to the table that will hold the header's last part.
    /// Headers may pass through any table, including ones made by dotted keys, and into the last
    /// element of an array of tables, but never into an inline table or a plain value.
    private func walkHeaderParents(of key: TOMLKey) throws(TOMLParseError) -> TOMLTableBuilder {
        var table = self
        for (offset, part) in key.parents.enumerated() {
            switch table[part.name] {
            case nil:
                table = try table.makeChild(part.name, origin: .implicit, at: part.location)
            case .table(let child):
                table = child
            case .arrayOfTables(let array):
                table = array.last
            case .value(let node):
                throw TOMLConflict.notATable(key.display(prefix: offset + 1), node: node, at: part.location)
            }
        }
        return table
    }
}
