
/// Rows of the class tables (`ActiveUsers`, `ActiveSessions`): the field map as JSON in `body`, with the
/// indexed fields, the geopoint and the expiry copied into their own columns on every write.
enum ObjectStore {
    static func fetch(_ db: any StorageConnection, _ descriptor: ClassDescriptor, objectId: String, extra: RowFilter = RowFilter())
        throws -> StoredObject?
    {
        var filter = extra
        filter.add("objectId = ?", [.text(objectId)])
        return try find(db, descriptor, filter: filter).first
    }

    /// Rows passing `filter`, in insertion order. With a `deadline`, gives up with `QueryTimeout` once it
    /// has passed (checked at the first row and every 256 after), so one query cannot hold a database connection for seconds.
    static func find(_ db: any StorageConnection, _ descriptor: ClassDescriptor, filter: RowFilter,
                     deadline: ContinuousClock.Instant? = nil) throws -> [StoredObject] {
        let condition = filter.whereClause(db.dialect)
        let sql = "SELECT objectId, createdAt, updatedAt, body FROM \(descriptor.table)\(condition.sql) ORDER BY id"
        var objects: [StoredObject] = []
        try db.forEachRow(sql, condition.arguments) { row in
            if let deadline, objects.count % 256 == 0, ContinuousClock.now > deadline { throw QueryTimeout() }
            let body: String = row["body"]
            let fields = (try? JSONCoding.decode(body))?.objectValue ?? [:]
            objects.append(StoredObject(objectId: row["objectId"], createdAt: row["createdAt"],
                                        updatedAt: row["updatedAt"], fields: fields))
        }
        return objects
    }

    static func insert(_ db: any StorageConnection, _ descriptor: ClassDescriptor, _ object: StoredObject) throws {
        let mirrored = mirroredColumns(descriptor, object.fields)
        let names = ["objectId", "createdAt", "updatedAt", "body"] + mirrored.map(\.name)
        let values: [SQLValue] = [
            object.objectId.sqlValue, object.createdAt.sqlValue, object.updatedAt.sqlValue,
            JSONCoding.encodeString(.object(object.fields)).sqlValue,
        ] + mirrored.map(\.value)
        try db.execute("INSERT INTO \(descriptor.table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
            SQLArguments(values)
        )
    }

    static func update(_ db: any StorageConnection, _ descriptor: ClassDescriptor, _ object: StoredObject) throws {
        let mirrored = mirroredColumns(descriptor, object.fields)
        let assignments = (["updatedAt", "body"] + mirrored.map(\.name)).map { "\($0) = ?" }
        let values: [SQLValue] = [
            object.updatedAt.sqlValue, JSONCoding.encodeString(.object(object.fields)).sqlValue,
        ] + mirrored.map(\.value) + [object.objectId.sqlValue]
        try db.execute("UPDATE \(descriptor.table) SET \(assignments.joined(separator: ", ")) WHERE objectId = ?",
            SQLArguments(values)
        )
    }

    @discardableResult
    static func delete(_ db: any StorageConnection, _ descriptor: ClassDescriptor, objectId: String) throws -> Bool {
        try db.execute("DELETE FROM \(descriptor.table) WHERE objectId = ?", [objectId]) > 0
    }

    private static func mirroredColumns(_ descriptor: ClassDescriptor, _ fields: [String: JSONValue])
        -> [(name: String, value: SQLValue)]
    {
        var columns = descriptor.indexedStringColumns.map { name in
            (name: name, value: fields[name]?.stringValue?.sqlValue ?? .null)
        }
        if let geoField = descriptor.geoField {
            let point = fields[geoField].flatMap(GeoPoint.init(json:))
            columns.append(("latitude", point?.latitude.sqlValue ?? .null))
            columns.append(("longitude", point?.longitude.sqlValue ?? .null))
        }
        if descriptor.usesACL {
            columns.append(("readers", ObjectACL(fields["ACL"]).readersColumn.sqlValue))
        }
        if let expiryField = descriptor.expiryField {
            let millis = fields[expiryField]?["iso"]?.stringValue.flatMap(ParseTimestamp.parse)
            columns.append(("expiresAt", millis?.sqlValue ?? .null))
        }
        return columns
    }
}
