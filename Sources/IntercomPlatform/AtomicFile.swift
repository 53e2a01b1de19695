import Foundation
import Glibc

/// Crash-safe whole-file replacement and bounded whole-file reads.
///
/// `write` follows the only order that survives a power cut on ext4/f2fs: write a temporary file in the same
/// directory → `fsync` it → `rename(2)` over the target → `fsync` the directory, so a reader sees either the
/// old bytes or the new bytes, never a mix or an empty file (reliability matrix #21, #22).
public enum AtomicFile {
    /// The default bound for `read`: state and config files are small; anything bigger is damage.
    public static let defaultReadLimit = 1 << 20

    /// Attempts at finding an unused temporary name before giving up with `EEXIST`.
    static let temporaryNameAttempts = 16

    /// Replaces the file at `path` with `bytes`, created with exactly `permissions` (not masked by umask).
    ///
    /// On any failure before the rename, the temporary file is removed and the old file is untouched.
    /// If only the final directory `fsync` fails, the new content is already in place but may not survive a
    /// power cut; the error still reports it (`call == "fsync"`, `path ==` the directory).
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o600) throws(SystemCallError) {
        try write(bytes, to: path, permissions: permissions, using: PosixFileSystemCalls())
    }

    /// Reads the whole regular file at `path`, refusing files over `limit` bytes with `EFBIG` and anything that
    /// is not a regular file (a FIFO would block forever, a device could be endless) with `EINVAL`.
    public static func read(_ path: String, limit: Int = defaultReadLimit) throws(SystemCallError) -> [UInt8] {
        try read(path, limit: limit, using: PosixFileSystemCalls())
    }

    package static func write(
        _ bytes: [UInt8],
        to path: String,
        permissions: mode_t,
        using calls: some FileSystemCalls
    ) throws(SystemCallError) {
        guard let components = FilePathComponents(path) else {
            throw SystemCallError(call: "open", errno: EISDIR, path: path, detail: "not a file path")
        }
        let (descriptor, temporaryPath) = try createTemporaryFile(beside: components, using: calls)
        do throws(SystemCallError) {
            try retryingOnInterrupt("fchmod", path: temporaryPath) { calls.fchmod(descriptor, mode: permissions) }
            try writeFully(bytes, to: descriptor, path: temporaryPath, using: calls)
            try retryingOnInterrupt("fsync", path: temporaryPath) { calls.fsync(descriptor) }
        } catch {
            _ = calls.close(descriptor)
            _ = calls.unlink(temporaryPath)
            throw error
        }
        // close(2) can report a deferred write error (EIO, ENOSPC on some filesystems); never retry it.
        if calls.close(descriptor) != 0 {
            let failure = SystemCallError(call: "close", errno: errno, path: temporaryPath)
            _ = calls.unlink(temporaryPath)
            throw failure
        }
        if calls.rename(temporaryPath, to: path) != 0 {
            let failure = SystemCallError(call: "rename", errno: errno, path: path)
            _ = calls.unlink(temporaryPath)
            throw failure
        }
        try synchronizeDirectory(components.directory, using: calls)
    }

    package static func read(
        _ path: String,
        limit: Int,
        using calls: some FileSystemCalls
    ) throws(SystemCallError) -> [UInt8] {
        precondition(limit >= 0, "AtomicFile.read limit must not be negative")
        let flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
        let descriptor = try retryingOnInterrupt("open", path: path) { calls.open(path, flags: flags, mode: 0) }
        defer { _ = calls.close(descriptor) }

        var status = stat()
        try retryingOnInterrupt("fstat", path: path) { calls.fstat(descriptor, into: &status) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw SystemCallError(call: "read", errno: EINVAL, path: path, detail: "not a regular file")
        }
        let tooLarge = SystemCallError(
            call: "read", errno: EFBIG, path: path, detail: "file is larger than the \(limit)-byte limit")
        guard status.st_size <= limit else { throw tooLarge }

        // The size from fstat is only a hint (procfs reports 0, the file may grow): the loop is the bound.
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: limit < 65_536 ? limit + 1 : 65_536)
        while true {
            let count = try retryingOnInterrupt("read", path: path) {
                chunk.withUnsafeMutableBytes { calls.read(descriptor, into: $0) }
            }
            if count == 0 { return contents }
            contents.append(contentsOf: chunk[0..<count])
            if contents.count > limit { throw tooLarge }
        }
    }

    /// Opens a new, uniquely named file next to the target with `O_EXCL`, so an old temporary file or
    /// an attacker's symlink is never reused.
    static func createTemporaryFile(
        beside components: FilePathComponents,
        using calls: some FileSystemCalls
    ) throws(SystemCallError) -> (descriptor: Int32, path: String) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        var lastCollision: SystemCallError?
        for _ in 0..<temporaryNameAttempts {
            let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
            let path = components.sibling(named: temporaryName(for: components.name, suffix: suffix))
            do throws(SystemCallError) {
                let descriptor = try retryingOnInterrupt("open", path: path) {
                    calls.open(path, flags: flags, mode: 0o600)
                }
                return (descriptor, path)
            } catch where error.errno == EEXIST {
                lastCollision = error
            }
        }
        throw lastCollision ?? SystemCallError(call: "open", errno: EEXIST, path: components.directory)
    }

    /// `.NAME.tmp-HEX`: hidden, and recognisable by `removeStaleTemporaryFiles(in:)`.
    static func temporaryName(for name: String, suffix: String) -> String {
        ".\(name)\(temporaryMarker)\(suffix)"
    }

    static let temporaryMarker = ".tmp-"

    /// Deletes temporary files that a killed writer left behind (a SIGKILL between create and rename leaves
    /// one per kill). Call it at start-up, while no other writer uses `directory`. Best effort: returns the
    /// names it removed.
    @discardableResult
    public static func removeStaleTemporaryFiles(in directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let stale = names.filter(isTemporaryName).sorted()
        return stale.filter { unlink(directory + "/" + $0) == 0 }
    }

    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), let marker = name.range(of: temporaryMarker, options: .backwards) else { return false }
        let suffix = name[marker.upperBound...]
        return !suffix.isEmpty && suffix.allSatisfy(\.isHexDigit) && marker.lowerBound > name.index(after: name.startIndex)
    }

    /// Loops over short writes until every byte is in the file.
    static func writeFully(
        _ bytes: [UInt8],
        to descriptor: Int32,
        path: String,
        using calls: some FileSystemCalls
    ) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let written = try retryingOnInterrupt("write", path: path) {
                bytes.withUnsafeBytes { calls.write(descriptor, from: UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            }
            // write(2) returning 0 for a non-empty buffer would loop forever; treat it as an I/O error.
            guard written > 0 else {
                throw SystemCallError(call: "write", errno: EIO, path: path, detail: "write returned 0")
            }
            offset += written
        }
    }

    /// `fsync` on the directory makes the rename itself durable.
    static func synchronizeDirectory(_ directory: String, using calls: some FileSystemCalls) throws(SystemCallError) {
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
        let descriptor = try retryingOnInterrupt("open", path: directory) {
            calls.open(directory, flags: flags, mode: 0)
        }
        defer { _ = calls.close(descriptor) }
        try retryingOnInterrupt("fsync", path: directory) { calls.fsync(descriptor) }
    }
}
