import Glibc
import IntercomPlatform
import IntercomTestSupport
import Testing

@Suite struct AtomicFileTests {
    @Test func writeCreatesFileWithExactContentAndNoLeftovers() throws {
        let directory = try TemporaryDirectory()
        let bytes = Array("hello, intercom\n".utf8)
        try AtomicFile.write(bytes, to: directory.path("state.json"))
        #expect(directory.contents(of: "state.json") == bytes)
        #expect(directory.entries() == ["state.json"])
    }

    @Test func writeReplacesOldContentCompletely() throws {
        let directory = try TemporaryDirectory()
        try directory.write(String(repeating: "old content that is longer ", count: 100), to: "state.json")
        try AtomicFile.write(Array("new".utf8), to: directory.path("state.json"))
        #expect(directory.contents(of: "state.json") == Array("new".utf8))
        #expect(directory.entries() == ["state.json"])
    }

    @Test func writeOfEmptyAndLargeContent() throws {
        let directory = try TemporaryDirectory()
        try AtomicFile.write([], to: directory.path("empty"))
        #expect(directory.contents(of: "empty") == [])
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try AtomicFile.write(large, to: directory.path("large"))
        #expect(directory.contents(of: "large") == large)
    }

    @Test(arguments: [mode_t(0o600), 0o640, 0o644])
    func writeAppliesExactPermissionsRegardlessOfUmask(permissions: mode_t) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("file")
        try AtomicFile.write([1, 2, 3], to: path, permissions: permissions)
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & 0o7777 == permissions)
    }

    @Test func writeUnderANonDirectoryFailsWithENOTDIRAndLeavesTheFileAlone() throws {
        let directory = try TemporaryDirectory()
        try directory.write("i am a file", to: "plain")
        let error = #expect(throws: SystemCallError.self) {
            try AtomicFile.write([1], to: directory.path("plain") + "/state.json")
        }
        #expect(error?.call == "open")
        #expect(error?.errno == ENOTDIR)
        #expect(directory.contents(of: "plain") == Array("i am a file".utf8))
        #expect(directory.entries() == ["plain"])
    }

    @Test func writeIntoMissingDirectoryFailsWithENOENT() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: SystemCallError.self) {
            try AtomicFile.write([1], to: directory.path("missing/state.json"))
        }
        #expect(error?.call == "open")
        #expect(error?.errno == ENOENT)
        #expect(error?.path?.hasPrefix(directory.path("missing/")) == true)
    }

    @Test func writeIntoProcFailsCleanly() {
        let error = #expect(throws: SystemCallError.self) {
            try AtomicFile.write([1], to: "/proc/intercom-atomic-file-test")
        }
        #expect(error?.call == "open")
        #expect(error?.errno == ENOENT || error?.errno == EACCES)
        // The error names the temporary file that was tried, next to the target.
        #expect(error?.path?.hasPrefix("/proc/.intercom-atomic-file-test.tmp-") == true)
    }

    @Test func writeRejectsPathsThatNameNoFile() {
        for path in ["", "/tmp/", "."] {
            #expect(throws: SystemCallError.self, "\(path)") { try AtomicFile.write([1], to: path) }
        }
    }

    @Test func readReturnsContentUpToAndIncludingTheLimit() throws {
        let directory = try TemporaryDirectory()
        try directory.write("0123456789", to: "ten")
        #expect(try AtomicFile.read(directory.path("ten"), limit: 10) == Array("0123456789".utf8))
        #expect(try AtomicFile.read(directory.path("ten")) == Array("0123456789".utf8))
    }

    @Test func readOverTheLimitIsEFBIGWithAClearMessage() throws {
        let directory = try TemporaryDirectory()
        try directory.write("0123456789A", to: "eleven")
        let error = #expect(throws: SystemCallError.self) {
            try AtomicFile.read(directory.path("eleven"), limit: 10)
        }
        #expect(error?.errno == EFBIG)
        #expect(error?.description.contains("larger than the 10-byte limit") == true)
    }

    @Test func readOfProcfsFileWhoseSizeIsZeroStillBoundsTheRead() throws {
        // /proc files report st_size 0, so only the read loop enforces the limit.
        #expect(try AtomicFile.read("/proc/self/status").isEmpty == false)
        #expect(throws: SystemCallError.self) { try AtomicFile.read("/proc/self/status", limit: 8) }
    }

    @Test func readOfMissingFileIsENOENT() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: SystemCallError(call: "open", errno: ENOENT, path: directory.path("nope"))) {
            try AtomicFile.read(directory.path("nope"))
        }
    }

    @Test func readRejectsDirectoriesAndFIFOsWithoutBlocking() throws {
        let directory = try TemporaryDirectory()
        let directoryError = #expect(throws: SystemCallError.self) { try AtomicFile.read(directory.path) }
        #expect(directoryError?.errno == EINVAL)
        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let fifoError = #expect(throws: SystemCallError.self) { try AtomicFile.read(fifo) }
        #expect(fifoError?.errno == EINVAL)
        #expect(fifoError?.detail == "not a regular file")
    }

    @Test func staleTemporaryFilesAreRemovedAndNothingElse() throws {
        let directory = try TemporaryDirectory()
        let keep = ["identity.json", "notes.tmp-abc", ".hidden", ".tmp-abc", ".identity.json.tmp-", ".x.tmp-nothex"]
        let stale = [".identity.json.tmp-1f2e3d4c5b6a7980", ".config.json.tmp-0"]
        for name in keep + stale { try directory.write("x", to: name) }
        #expect(AtomicFile.removeStaleTemporaryFiles(in: directory.path) == stale.sorted())
        #expect(directory.entries() == keep.sorted())
    }
}
