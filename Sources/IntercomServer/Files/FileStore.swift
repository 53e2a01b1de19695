import Foundation

/// Parse Files on disk, in one directory beside the database (`ServerConfiguration.filesDirectory`): one
/// plain file per stored name. Names reach here only after `FileUploadPolicy.isValidName` (no `/`, no
/// leading `.`), so a name can never leave the directory. An actor: disk IO stays off the request's
/// other state, and writes are serialised.
actor FileStore {
    let directory: String

    init(directory: String) throws(FileStoreError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw FileStoreError(operation: "mkdir", path: directory, reason: error.localizedDescription)
        }
    }

    func path(_ name: String) -> String { directory + "/" + name }

    /// Writes atomically (temp file, then rename): a reader never sees half a picture.
    func write(_ name: String, _ bytes: [UInt8]) throws(FileStoreError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path(name)), options: .atomic)
        } catch {
            throw FileStoreError(operation: "write", path: path(name), reason: error.localizedDescription)
        }
    }

    /// The file's bytes, nil when there is no such file.
    func read(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(name)).map { Array($0) }
    }

    /// Removes the file; true when it existed.
    @discardableResult
    func delete(_ name: String) -> Bool {
        (try? FileManager.default.removeItem(atPath: path(name))) != nil
    }

    /// Removes every file last written before `cutoff` except those in `keeping` (files stored before
    /// uploads were recorded in `_File`, which no row points at any more); returns how many.
    func deleteOlder(than cutoff: Date, keeping: Set<String> = []) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var removed = 0
        for name in names where !keeping.contains(name) {
            let modified = (try? FileManager.default.attributesOfItem(atPath: path(name)))?[.modificationDate] as? Date
            if let modified, modified < cutoff, delete(name) { removed += 1 }
        }
        return removed
    }
}
