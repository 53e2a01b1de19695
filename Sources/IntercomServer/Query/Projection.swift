/// `keys` and `excludeKeys` (parse-wire.md §5): `objectId`, `createdAt`, `updatedAt` and `ACL` always stay.
enum Projection {
    static func apply(_ object: [String: JSONValue], keys: Set<String>?, excluding: Set<String>) -> [String: JSONValue] {
        object.filter { name, _ in
            if FieldName.builtIn.contains(name) { return true }
            if let keys, !keys.contains(name) { return false }
            return !excluding.contains(name)
        }
    }
}
