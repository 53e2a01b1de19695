import CLibcShims
import Foundation
import Glibc

/// The agent's persistent state directory (default `/var/lib/intercom`; the caller resolves
/// `INTERCOM_STATE_DIR` and `--state-dir` overrides). Every write is atomic (`AtomicFile`); a damaged file
/// is moved aside and replaced, never a reason to crash (reliability matrix #18, #21, #22).
public struct StateStore: Sendable {
    public static let defaultDirectory = "/var/lib/intercom"
    public static let identityFileName = "identity.json"
    /// How many moved-aside corrupt copies to keep, so a corruption loop cannot fill the SD card.
    public static let corruptCopiesKept = 3

    public let directory: String

    public init(directory: String = StateStore.defaultDirectory) {
        self.directory = directory
    }

    public var identityPath: String { directory + "/" + Self.identityFileName }
    /// The last identity saved, written after `identity.json` in the same atomic way: when a power cut or a
    /// failing card damages one, the other still holds the device's userID (callers' saved contacts).
    public var identityBackupPath: String { identityPath + ".bak" }

    /// Creates the directory (and parents) with mode 0700 if it is missing, and removes temporary files a
    /// killed earlier run left behind. Call once at start-up, before any other writer uses the directory.
    @discardableResult
    public func prepare() throws(SystemCallError) -> [String] {
        try Directories.createIfMissing(directory, permissions: 0o700)
        return AtomicFile.removeStaleTemporaryFiles(in: directory)
    }

    /// Loads the identity. When `identity.json` is damaged it is moved to `identity.json.corrupt-<UTC
    /// timestamp>` and the identity comes back from `identity.json.bak` if that is good, else a fresh one is
    /// made; `recovered` says which. A missing file is restored from the backup too, and only with neither a
    /// fresh identity is created. Throws only when a file cannot be read or written at all (permissions, I/O
    /// errors): an identity that is merely unreadable is never replaced.
    ///
    /// A full or read-only disk (`ENOSPC`, `EDQUOT`, `EROFS`) while writing a new or restored identity is not
    /// fatal: the identity is returned and `unsaved` holds the error, so the agent can run with it in memory
    /// and `save` it again later (the heartbeat does).
    public func loadOrCreateIdentity(now: Date = Date()) throws(SystemCallError) -> (
        identity: DeviceIdentity, recovered: StateRecovery?, unsaved: SystemCallError?
    ) {
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.read(identityPath)
        } catch where error.errno == ENOENT {
            if let backup = readBackup() {
                return (backup, StateRecovery(path: identityPath, reason: .missing, preservedCopyPath: nil,
                                              restoredFrom: identityBackupPath), try saveTolerantly(backup))
            }
            let identity = DeviceIdentity.fresh()
            return (identity, nil, try saveTolerantly(identity))
        } catch where error.errno == EFBIG {
            return try replaceDamagedIdentity(reason: .tooLarge(limit: AtomicFile.defaultReadLimit), now: now)
        }
        do {
            return (try DeviceIdentityCoding.decode(bytes), nil, nil)
        } catch {
            return try replaceDamagedIdentity(reason: error, now: now)
        }
    }

    /// The filesystem holding the directory, when it lives in RAM (`statfs`): tmpfs, ramfs, or an overlay (an
    /// overlay root such as Raspberry Pi OS's read-only mode or `systemd-nspawn --volatile=overlay` keeps its
    /// writes in RAM). Such a directory is empty again after every boot. nil for any other filesystem, or when
    /// `statfs` fails.
    public func volatileFilesystem() -> String? {
        var magic: UInt64 = 0
        guard CIntercomShims_filesystem_magic(directory, &magic) == 0 else { return nil }
        return Self.volatileFilesystemName(magic: magic)
    }

    /// The name of a RAM-backed filesystem from its `statfs` magic (linux/magic.h), else nil.
    public static func volatileFilesystemName(magic: UInt64) -> String? {
        switch magic & 0xFFFF_FFFF {
        case 0x0102_1994: "tmpfs"
        case 0x8584_58F6: "ramfs"
        case 0x794C_7630: "overlay"
        default: nil
        }
    }

    /// The errors that mean "no room (or no writing) now, maybe later": kept in memory, retried.
    public static func isOutOfSpace(_ error: SystemCallError) -> Bool {
        [ENOSPC, EDQUOT, EROFS].contains(error.errno)
    }

    /// `save`, with a full or read-only disk returned instead of thrown.
    private func saveTolerantly(_ identity: DeviceIdentity) throws(SystemCallError) -> SystemCallError? {
        do {
            try save(identity)
            return nil
        } catch where Self.isOutOfSpace(error) {
            return error
        }
    }

    /// Atomically replaces `identity.json`, then its backup (mode 0600: they may hold a session token).
    public func save(_ identity: DeviceIdentity) throws(SystemCallError) {
        let bytes = DeviceIdentityCoding.encode(identity)
        try AtomicFile.write(bytes, to: identityPath, permissions: 0o600)
        try AtomicFile.write(bytes, to: identityBackupPath, permissions: 0o600)
    }

    /// The backup's identity, if it is there and intact.
    func readBackup() -> DeviceIdentity? {
        guard let bytes = try? AtomicFile.read(identityBackupPath) else { return nil }
        return try? DeviceIdentityCoding.decode(bytes)
    }

    func replaceDamagedIdentity(
        reason: StateRecovery.Reason,
        now: Date
    ) throws(SystemCallError) -> (identity: DeviceIdentity, recovered: StateRecovery?, unsaved: SystemCallError?) {
        let preserved = try moveAside(identityPath, now: now)
        let backup = readBackup()
        let identity = backup ?? DeviceIdentity.fresh()
        let unsaved = try saveTolerantly(identity)  // Its directory fsync also makes the move-aside durable.
        pruneCorruptCopies(of: Self.identityFileName, keeping: Self.corruptCopiesKept)
        return (identity, StateRecovery(path: identityPath, reason: reason, preservedCopyPath: preserved,
                                        restoredFrom: backup == nil ? nil : identityBackupPath), unsaved)
    }

    /// Renames `path` to `path.corrupt-<timestamp>`, adding `-2`, `-3`… if that name is taken.
    func moveAside(_ path: String, now: Date) throws(SystemCallError) -> String {
        let base = "\(path).corrupt-\(UTCTimestamp.compact(secondsSince1970: Int(now.timeIntervalSince1970)))"
        var candidate = base
        var attempt = 1
        while Glibc.access(candidate, F_OK) == 0 {
            attempt += 1
            guard attempt <= 100 else {
                throw SystemCallError(call: "rename", errno: EEXIST, path: base, detail: "too many corrupt copies")
            }
            candidate = "\(base)-\(attempt)"
        }
        try retryingOnInterrupt("rename", path: path) { Glibc.rename(path, candidate) }
        return candidate
    }

    /// Best effort: deletes all but the newest `keeping` corrupt copies (names sort by timestamp).
    func pruneCorruptCopies(of fileName: String, keeping: Int) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let copies = names.filter { $0.hasPrefix(fileName + ".corrupt-") }.sorted()
        for name in copies.dropLast(keeping) {
            _ = Glibc.unlink(directory + "/" + name)
        }
    }
}
