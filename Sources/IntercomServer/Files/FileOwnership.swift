
/// A row may point only at Parse Files its writer uploaded (`FileRecordStore`). Without this, a client
/// could write a row naming someone else's file (learnt from a row it may read) and have it deleted with
/// that row or by the retention sweep. The master key may reference any file.
enum FileOwnership {
    /// Throws 119 unless `auth` uploaded every file that `fields` references and `previous` did not
    /// (an update that keeps a file it did not upload, e.g. an ACL writer editing another field, passes).
    static func authorize(_ db: any StorageConnection, _ fields: [String: JSONValue], previous: [String: JSONValue] = [:],
                          auth: RequestAuth) throws {
        guard !auth.isMaster else { return }
        let kept = Set(FileReferences.names(in: previous))
        let added = FileReferences.names(in: fields).filter { !kept.contains($0) }
        guard let foreign = try FileRecordStore.notOwned(db, names: added, by: auth.userId).first else { return }
        throw ParseError.forbidden("Permission denied: file \(foreign) was not uploaded by this user.")
    }

    /// The files to delete with a row: those its creator (`ownerField`) uploaded, their records dropped.
    static func releaseWithRow(_ db: any StorageConnection, _ fields: [String: JSONValue], ownerField: String) throws -> [String] {
        try FileRecordStore.release(db, names: FileReferences.names(in: fields), ownedBy: fields[ownerField]?.stringValue)
    }
}
