/// A row's `ACL` field (parse-wire.md §4): `{"*":{"read":true},"<userId>":{"read":true,"write":true}}`.
/// A row without one is public, as in parse-server; a malformed one grants nothing.
struct ObjectACL: Sendable, Equatable {
    let json: JSONValue?

    init(_ json: JSONValue?) { self.json = json }

    /// Whether `userId` (nil: the public) may read.
    func canRead(_ userId: String?) -> Bool { allows("read", userId) }

    func canWrite(_ userId: String?) -> Bool { allows("write", userId) }

    /// `,a,b,` of the keys with read access, for `instr(readers, ',<id>,')` in SQL.
    var readersColumn: String {
        guard let json else { return ",*," }
        let readers = (json.objectValue ?? [:]).filter { $0.value["read"]?.boolValue == true }.map(\.key).sorted()
        return readers.isEmpty ? "" : "," + readers.joined(separator: ",") + ","
    }

    private func allows(_ access: String, _ userId: String?) -> Bool {
        guard let json else { return true }
        if json["*"]?[access]?.boolValue == true { return true }
        guard let userId else { return false }
        return json[userId]?[access]?.boolValue == true
    }
}
