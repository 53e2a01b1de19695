import Foundation
import GRDB

/// The visitor log's retention (issue #19): `CallLog` rows older than `days` are deleted with the
/// snapshots they point at, and so is any file older than that which no row kept (an upload whose row was
/// never written). Age is the row's `createdAt` and the file's modification time, against the server clock.
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
        let (rows, names) = try await database.pool.write { db -> (Int, [String]) in
            let bodies = try String.fetchAll(db, sql: "SELECT body FROM CallLog WHERE createdAt < ?", arguments: [cutoff])
            try db.execute(sql: "DELETE FROM CallLog WHERE createdAt < ?", arguments: [cutoff])
            return (db.changesCount,
                    bodies.flatMap { FileReferences.names(in: (try? JSONCoding.decode($0))?.objectValue ?? [:]) })
        }
        var removed = 0
        for name in names where await files.delete(name) { removed += 1 }
        removed += await files.deleteOlder(than: Date(timeIntervalSince1970: Double(cutoff) / 1000))
        return (rows, removed)
    }
}
