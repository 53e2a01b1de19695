
/// Who may read and write which rows (the class-level permissions and ACLs of the original deployment,
/// fixed in code). The master key bypasses all of it.
///
/// - `ActiveUsers`: everyone who passed the app-id check may read (it is the directory of online devices);
///   rows older than 3 heartbeats are offline and invisible. Only the user named by `userID` may create,
///   update or delete its row, and there is one row per user: a second create for the same `userID` is
///   refused with 137 (the device's "query `userID == me`, then PUT or POST" upsert never sends one).
/// - `ActiveSessions`: only the caller and the receiver see a row, and only until `expiresAt`; the caller
///   (the session user) creates it; either party may update its non-server fields or delete it.
/// - `CallLog` (issue #19): the row's ACL decides, as in parse-server (the device names its owners as
///   readers and itself as writer); only the device named by `userID` may create it.
struct AccessPolicy: Sendable {
    let descriptor: ClassDescriptor
    let heartbeatMilliseconds: Int64

    /// SQL conditions for the rows `auth` may see at `now`.
    func visibleRows(for auth: RequestAuth, now: Int64) -> RowFilter {
        var filter = RowFilter()
        switch descriptor.name {
        case ClassDescriptor.activeUsers.name:
            filter.add("updatedAt >= ?", [(now - 3 * heartbeatMilliseconds).sqlValue])
        case ClassDescriptor.activeSessions.name:
            filter.add("expiresAt IS NULL OR expiresAt > ?", [now.sqlValue])
            if !auth.isMaster {
                let userId = auth.userId ?? ""
                filter.add("callerID = ? OR receiverID = ?", [userId.sqlValue, userId.sqlValue])
            }
        case ClassDescriptor.callLog.name:
            if !auth.isMaster {
                let reader = "," + (auth.userId ?? "*") + ","
                filter.addContains(column: "readers", ",*,", or: reader)
            }
        default:
            filter.addNever()
        }
        return filter
    }

    /// Throws 119 unless `auth` may create a row with `fields`.
    func authorizeCreate(_ auth: RequestAuth, fields: [String: JSONValue]) throws(ParseError) {
        guard !auth.isMaster else { return }
        guard let userId = auth.userId, fields[ownerField]?.stringValue == userId else {
            throw .forbidden("Permission denied for action create on class \(descriptor.name).")
        }
    }

    /// Whether `auth` may update or delete `object` (a visible row); callers answer 101 when not, as
    /// parse-server does for ACL-protected writes.
    func mayWrite(_ auth: RequestAuth, _ object: StoredObject) -> Bool {
        guard !auth.isMaster else { return true }
        if descriptor.usesACL { return ObjectACL(object.fields["ACL"]).canWrite(auth.userId) }
        guard let userId = auth.userId else { return false }
        return participants(of: object.fields).contains(userId)
    }

    /// Whether `auth` may see a row with `fields` (LiveQuery's ACL check): anyone sees `ActiveUsers`, only
    /// the two parties see an `ActiveSessions` row.
    func mayRead(_ auth: RequestAuth, _ fields: [String: JSONValue]) -> Bool {
        if descriptor.usesACL { return auth.isMaster || ObjectACL(fields["ACL"]).canRead(auth.userId) }
        guard !auth.isMaster, descriptor.name == ClassDescriptor.activeSessions.name else { return true }
        guard let userId = auth.userId else { return false }
        return participants(of: fields).contains(userId)
    }

    /// Throws 119 when an update would hand the row to someone else.
    func authorizeUpdate(_ auth: RequestAuth, old: StoredObject, new: [String: JSONValue]) throws(ParseError) {
        guard !auth.isMaster else { return }
        for field in identityFields where new[field] != old.fields[field] {
            throw .forbidden("Permission denied for action update on class \(descriptor.name): \(field) cannot change.")
        }
    }

    private var ownerField: String { descriptor.creatorField }

    private var identityFields: [String] {
        descriptor.name == ClassDescriptor.activeSessions.name ? ["callerID", "receiverID"] : ["userID"]
    }

    private func participants(of fields: [String: JSONValue]) -> [String] {
        identityFields.compactMap { fields[$0]?.stringValue }
    }
}
