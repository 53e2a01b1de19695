import Foundation
import Glibc
import IntercomPlatform
import IntercomTestSupport
import Testing

@Suite struct DirectoriesTests {
    func mode(of path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    @Test func createsNestedDirectoriesWithTheRequestedModeOnTheLast() throws {
        let directory = try TemporaryDirectory()
        let target = directory.path("a/b/state")
        try Directories.createIfMissing(target, permissions: 0o700)
        #expect(mode(of: target) == 0o700)
        #expect(mode(of: directory.path("a/b")) == 0o755 & ~(try currentUmask()))
    }

    @Test func existingDirectoryKeepsItsMode() throws {
        let directory = try TemporaryDirectory()
        let target = directory.path("state")
        #expect(mkdir(target, 0o750) == 0)
        #expect(chmod(target, 0o750) == 0)
        try Directories.createIfMissing(target, permissions: 0o700)
        #expect(mode(of: target) == 0o750)
    }

    @Test func fileInTheWayIsENOTDIR() throws {
        let directory = try TemporaryDirectory()
        try directory.write("x", to: "file")
        for target in [directory.path("file"), directory.path("file/state")] {
            let error = #expect(throws: SystemCallError.self) { try Directories.createIfMissing(target) }
            #expect(error?.errno == ENOTDIR, "\(target)")
        }
    }

    @Test func emptyPathIsENOENT() {
        let error = #expect(throws: SystemCallError.self) { try Directories.createIfMissing("") }
        #expect(error?.errno == ENOENT)
    }

    /// Read from /proc rather than with umask(2), which would change it for tests running in parallel.
    func currentUmask() throws -> mode_t {
        let status = String(decoding: try AtomicFile.read("/proc/self/status"), as: UTF8.self)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }
}
