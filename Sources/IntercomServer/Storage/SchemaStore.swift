
/// Field types of a class: the fixed ones from its descriptor plus those inferred on first write and kept
/// in `_SchemaField` (parse-server's schema inference, parse-wire.md §4).
enum SchemaStore {
    static func fieldTypes(_ db: any StorageConnection, _ descriptor: ClassDescriptor) throws -> [String: FieldType] {
        var types = descriptor.fixedFields
        let rows = try db.rows(#"SELECT fieldName, type FROM "_SchemaField" WHERE className = ?"#, [descriptor.name])
        for row in rows {
            if let type = FieldType(rawValue: row["type"]) { types[row["fieldName"]] = type }
        }
        return types
    }

    /// Checks `fields` against the schema, records new fields, and throws 111 for a type mismatch or a second
    /// GeoPoint field.
    static func validateAndRecord(_ db: any StorageConnection, _ descriptor: ClassDescriptor, fields: [String: JSONValue]) throws {
        var types = try fieldTypes(db, descriptor)
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) where name != "ACL" {
            guard let type = FieldType.of(value) else { continue }
            if let expected = types[name] {
                guard expected == type else {
                    throw ParseError.incorrectType(
                        "schema mismatch for \(descriptor.name).\(name); expected \(expected.rawValue) but got \(type.rawValue)")
                }
                continue
            }
            if type == .geoPoint, types.values.contains(.geoPoint) {
                throw ParseError.incorrectType("there can only be one geopoint field in a class")
            }
            try db.execute(#"INSERT INTO "_SchemaField" (className, fieldName, type) VALUES (?, ?, ?)"#,
                [descriptor.name, name, type.rawValue])
            types[name] = type
        }
    }
}
