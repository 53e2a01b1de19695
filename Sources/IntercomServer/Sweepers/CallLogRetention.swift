import Foundation

/// The visitor log's retention (issue #19): `CallLog` rows older than `days` are deleted with the
/// snapshots they point at, and so is any file older than that which no row kept (an upload whose row was
/// never written). Age is the row's `createdAt` and the file's upload record (`_File.createdAt`, else its
/// modification time), against the server clock. A row's files are deleted with it only if its device
/// uploaded them (`FileRecordStore.release`); another user's file outlives a row that names it.
public struct CallLogRetention: Sendable {
    let days: Int64
    let files: FileStore

    init(days: Int64, files: FileStore) {
        self.days = days
        self.files = files
    }

    /// Rows and files removed by one pass at `now` (milliseconds since 1970).
    func sweep(_ database: ServerDatabase, now: Int64) async throws -> (rows: Int, files: Int) {
        let cutoff = now - days * 86_400_000
        let (rows, names, recorded) = try await database.write { db -> (Int, [String], Set<String>) in
            let bodies = try db.values(String.self, "SELECT body FROM CallLog WHERE createdAt < ?", [cutoff])
            let rows = try db.execute("DELETE FROM CallLog WHERE createdAt < ?", [cutoff])
            // A row's snapshot goes with it only when the row's device uploaded it (`FileOwnership`).
            var names: [String] = []
            for body in bodies {
                let fields = (try? JSONCoding.decode(body))?.objectValue ?? [:]
                names += try FileOwnership.releaseWithRow(db, fields, ownerField: ClassDescriptor.callLog.creatorField)
            }
            names += try FileRecordStore.deleteOlder(db, than: cutoff)
            return (rows, names, Set(try FileRecordStore.names(db)))
        }
        var removed = 0
        for name in names where await files.delete(name) { removed += 1 }
        // Files stored before uploads were recorded have only their modification time.
        removed += await files.deleteOlder(than: Date(timeIntervalSince1970: Double(cutoff) / 1000), keeping: recorded)
        return (rows, removed)
    }
}
