/// One row of a class table: the Parse-managed columns plus the field map kept as JSON.
struct StoredObject: Sendable, Equatable {
    var objectId: String
    var createdAt: Int64
    var updatedAt: Int64
    /// Every field except `objectId`, `createdAt` and `updatedAt`.
    var fields: [String: JSONValue]

    /// The REST representation (parse-wire.md §4): fields plus id and ISO timestamps.
    var restJSON: [String: JSONValue] {
        var json = fields
        json["objectId"] = .string(objectId)
        json["createdAt"] = .string(ParseTimestamp.format(milliseconds: createdAt))
        json["updatedAt"] = .string(ParseTimestamp.format(milliseconds: updatedAt))
        return json
    }
}
