import Foundation

/// Parse Files' bytes. On one site, in one directory beside the database (`ServerConfiguration.filesDirectory`):
/// one plain file per stored name. On a fleet (PostgreSQL), in the database's `"_FileData"` table, so that every
/// instance serves every file and an instance keeps nothing of its own (a snapshot is tens of kilobytes; the
/// upload limit, `max_file_bytes`, bounds the rest). Names reach here only after `FileUploadPolicy.isValidName`
/// (no `/`, no leading `.`), so a name can never leave the directory. An actor: IO stays off the request's
/// other state, and writes are serialised.
actor FileStore {
    private enum Backing {
        case directory(String)
        case database(ServerDatabase)
    }

    private let backing: Backing

    /// Where the bytes are, for logs.
    nonisolated let location: String

    init(directory: String) throws(FileStoreError) {
        backing = .directory(directory)
        location = directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw FileStoreError(operation: "mkdir", path: directory, reason: error.localizedDescription)
        }
    }

    init(database: ServerDatabase) {
        backing = .database(database)
        location = database.location + " (_FileData)"
    }

    /// Writes atomically (a temp file then a rename, or one transaction): a reader never sees half a picture.
    func write(_ name: String, _ bytes: [UInt8]) async throws(FileStoreError) {
        switch backing {
        case .directory(let directory):
            let path = directory + "/" + name
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw FileStoreError(operation: "write", path: path, reason: error.localizedDescription)
            }
        case .database(let database):
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            do {
                _ = try await database.write { db in
                    try db.execute(#"INSERT INTO "_FileData" (name, bytes, createdAt) VALUES (?, ?, ?) "#
                        + "ON CONFLICT (name) DO UPDATE SET bytes = excluded.bytes, createdAt = excluded.createdAt",
                        [name, Data(bytes), now])
                }
            } catch {
                throw FileStoreError(operation: "INSERT", path: location + "/" + name, reason: "\(error)")
            }
        }
    }

    /// The file's bytes, nil when there is no such file.
    func read(_ name: String) async throws(FileStoreError) -> [UInt8]? {
        switch backing {
        case .directory(let directory):
            return FileManager.default.contents(atPath: directory + "/" + name).map { Array($0) }
        case .database(let database):
            do {
                return try await database.read { db in
                    try db.value(Data.self, #"SELECT bytes FROM "_FileData" WHERE name = ?"#, [name])
                }.map { Array($0) }
            } catch {
                throw FileStoreError(operation: "SELECT", path: location + "/" + name, reason: "\(error)")
            }
        }
    }

    /// Removes the file; true when it existed. A database error counts as not removed (and is retried by the
    /// sweeper's next pass for files it finds again).
    @discardableResult
    func delete(_ name: String) async -> Bool {
        switch backing {
        case .directory(let directory):
            return (try? FileManager.default.removeItem(atPath: directory + "/" + name)) != nil
        case .database(let database):
            let removed = try? await database.write { db in
                try db.execute(#"DELETE FROM "_FileData" WHERE name = ?"#, [name])
            }
            return (removed ?? 0) > 0
        }
    }

    /// Removes every file last written before `cutoff` except those in `keeping` (files stored before
    /// uploads were recorded in `_File`, which no row points at any more); returns how many.
    func deleteOlder(than cutoff: Date, keeping: Set<String> = []) async -> Int {
        switch backing {
        case .directory(let directory):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            var removed = 0
            for name in names where !keeping.contains(name) {
                let modified = (try? FileManager.default.attributesOfItem(atPath: directory + "/" + name))?[.modificationDate] as? Date
                if let modified, modified < cutoff, await delete(name) { removed += 1 }
            }
            return removed
        case .database(let database):
            let millis = Int64(cutoff.timeIntervalSince1970 * 1000)
            let old = (try? await database.read { db in
                try db.values(String.self, #"SELECT name FROM "_FileData" WHERE createdAt < ?"#, [millis])
            }) ?? []
            var removed = 0
            for name in old where !keeping.contains(name) {
                if await delete(name) { removed += 1 }
            }
            return removed
        }
    }
}
