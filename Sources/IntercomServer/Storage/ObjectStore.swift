import GRDB

/// Rows of the class tables (`ActiveUsers`, `ActiveSessions`): the field map as JSON in `body`, with the
/// indexed fields, the geopoint and the expiry copied into their own columns on every write.
enum ObjectStore {
    static func fetch(_ db: Database, _ descriptor: ClassDescriptor, objectId: String, extra: RowFilter = RowFilter())
        throws -> StoredObject?
    {
        var filter = extra
        filter.add("objectId = ?", [objectId.databaseValue])
        return try find(db, descriptor, filter: filter).first
    }

    /// Rows passing `filter`, in insertion order. With a `deadline`, gives up with `QueryTimeout` once it
    /// has passed (checked at the first row and every 256 after), so one query cannot hold a database connection for seconds.
    static func find(_ db: Database, _ descriptor: ClassDescriptor, filter: RowFilter,
                     deadline: ContinuousClock.Instant? = nil) throws -> [StoredObject] {
        let sql = "SELECT objectId, createdAt, updatedAt, body FROM \(descriptor.table)\(filter.whereClause) ORDER BY id"
        var objects: [StoredObject] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: filter.statementArguments)
        while let row = try rows.next() {
            if let deadline, objects.count % 256 == 0, ContinuousClock.now > deadline { throw QueryTimeout() }
            let body: String = row["body"]
            let fields = (try? JSONCoding.decode(body))?.objectValue ?? [:]
            objects.append(StoredObject(objectId: row["objectId"], createdAt: row["createdAt"],
                                        updatedAt: row["updatedAt"], fields: fields))
        }
        return objects
    }

    static func insert(_ db: Database, _ descriptor: ClassDescriptor, _ object: StoredObject) throws {
        let mirrored = mirroredColumns(descriptor, object.fields)
        let names = ["objectId", "createdAt", "updatedAt", "body"] + mirrored.map(\.name)
        let values: [DatabaseValue] = [
            object.objectId.databaseValue, object.createdAt.databaseValue, object.updatedAt.databaseValue,
            JSONCoding.encodeString(.object(object.fields)).databaseValue,
        ] + mirrored.map(\.value)
        try db.execute(
            sql: "INSERT INTO \(descriptor.table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
            arguments: StatementArguments(values)
        )
    }

    static func update(_ db: Database, _ descriptor: ClassDescriptor, _ object: StoredObject) throws {
        let mirrored = mirroredColumns(descriptor, object.fields)
        let assignments = (["updatedAt", "body"] + mirrored.map(\.name)).map { "\($0) = ?" }
        let values: [DatabaseValue] = [
            object.updatedAt.databaseValue, JSONCoding.encodeString(.object(object.fields)).databaseValue,
        ] + mirrored.map(\.value) + [object.objectId.databaseValue]
        try db.execute(
            sql: "UPDATE \(descriptor.table) SET \(assignments.joined(separator: ", ")) WHERE objectId = ?",
            arguments: StatementArguments(values)
        )
    }

    @discardableResult
    static func delete(_ db: Database, _ descriptor: ClassDescriptor, objectId: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM \(descriptor.table) WHERE objectId = ?", arguments: [objectId])
        return db.changesCount > 0
    }

    private static func mirroredColumns(_ descriptor: ClassDescriptor, _ fields: [String: JSONValue])
        -> [(name: String, value: DatabaseValue)]
    {
        var columns = descriptor.indexedStringColumns.map { name in
            (name: name, value: fields[name]?.stringValue?.databaseValue ?? .null)
        }
        if let geoField = descriptor.geoField {
            let point = fields[geoField].flatMap(GeoPoint.init(json:))
            columns.append(("latitude", point?.latitude.databaseValue ?? .null))
            columns.append(("longitude", point?.longitude.databaseValue ?? .null))
        }
        if descriptor.usesACL {
            columns.append(("readers", ObjectACL(fields["ACL"]).readersColumn.databaseValue))
        }
        if let expiryField = descriptor.expiryField {
            let millis = fields[expiryField]?["iso"]?.stringValue.flatMap(ParseTimestamp.parse)
            columns.append(("expiresAt", millis?.databaseValue ?? .null))
        }
        return columns
    }
}
