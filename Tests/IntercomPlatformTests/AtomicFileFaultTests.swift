import Glibc
@testable import IntercomPlatform
import IntercomTestSupport
import Testing

/// AtomicFile against injected faults: the order of calls (what strace would show, matrix #21) and that the
/// old file survives every failure before the rename byte for byte (matrix #22, disk full).
@Suite struct AtomicFileFaultTests {
    static let oldContent = Array("{\"last\": \"known good\"}\n".utf8)
    static let newContent = Array(String(repeating: "new configuration line\n", count: 50).utf8)

    func makeFixture() throws -> (TemporaryDirectory, RecordingFileSystemCalls, String) {
        let directory = try TemporaryDirectory()
        try directory.write(Self.oldContent, to: "config.json")
        return (directory, RecordingFileSystemCalls(directory: directory.path), directory.path("config.json"))
    }

    @Test func callsHappenInTheDurableOrder() throws {
        let (directory, calls, target) = try makeFixture()
        try AtomicFile.write(Self.newContent, to: target, permissions: 0o600, using: calls)
        #expect(calls.steps == [
            "open temp", "fchmod temp", "write temp", "fsync temp", "close temp",
            "rename temp", "open dir", "fsync dir", "close dir",
        ])
        #expect(directory.contents(of: "config.json") == Self.newContent)
        #expect(directory.entries() == ["config.json"])
    }

    @Test func shortWritesAreContinuedUntilEveryByteIsWritten() throws {
        let (directory, calls, target) = try makeFixture()
        calls.maximumBytesPerWrite = 7
        try AtomicFile.write(Self.newContent, to: target, permissions: 0o600, using: calls)
        #expect(calls.writeSizes.count == (Self.newContent.count + 6) / 7)
        #expect(calls.writeSizes.reduce(0, +) == Self.newContent.count)
        #expect(directory.contents(of: "config.json") == Self.newContent)
    }

    @Test func interruptedCallsAreRetried() throws {
        let (directory, calls, target) = try makeFixture()
        calls.interruptions = ["write temp": 2, "fsync temp": 1, "fsync dir": 3]
        try AtomicFile.write(Self.newContent, to: target, permissions: 0o600, using: calls)
        #expect(calls.steps.filter { $0 == "fsync dir" }.count == 4)
        #expect(directory.contents(of: "config.json") == Self.newContent)
    }

    @Test(arguments: [
        ("write temp", ENOSPC), ("write temp", EIO), ("fsync temp", EIO), ("fchmod temp", EPERM),
        ("close temp", EIO), ("rename temp", EXDEV), ("open temp", EDQUOT),
    ])
    func failureBeforeTheRenameKeepsTheOldFileAndRemovesTheTemporaryFile(step: String, code: Int32) throws {
        let (directory, calls, target) = try makeFixture()
        calls.failures[step] = code
        let error = #expect(throws: SystemCallError.self) {
            try AtomicFile.write(Self.newContent, to: target, permissions: 0o600, using: calls)
        }
        #expect(error?.call == String(step.split(separator: " ")[0]))
        #expect(error?.errno == code)
        #expect(directory.contents(of: "config.json") == Self.oldContent)
        #expect(directory.entries() == ["config.json"])
        #expect(!calls.steps.contains("rename temp") || step == "rename temp")
    }

    @Test func directoryFsyncFailureIsReportedAgainstTheDirectory() throws {
        let (directory, calls, target) = try makeFixture()
        calls.failures["fsync dir"] = EIO
        let error = #expect(throws: SystemCallError.self) {
            try AtomicFile.write(Self.newContent, to: target, permissions: 0o600, using: calls)
        }
        #expect(error == SystemCallError(call: "fsync", errno: EIO, path: directory.path))
        // The rename already happened: the new content is in place, only its durability is in doubt.
        #expect(directory.contents(of: "config.json") == Self.newContent)
        #expect(calls.steps.last == "close dir")
    }

    @Test func temporaryNameCollisionsAreRetriedWithANewName() throws {
        let (directory, calls, target) = try makeFixture()
        calls.failures["open temp"] = EEXIST
        let error = #expect(throws: SystemCallError.self) {
            try AtomicFile.write(Self.newContent, to: target, permissions: 0o600, using: calls)
        }
        #expect(error?.errno == EEXIST)
        #expect(calls.steps.count == AtomicFile.temporaryNameAttempts)
        #expect(directory.contents(of: "config.json") == Self.oldContent)
    }

    @Test func readFailureIsReportedAndTheDescriptorClosed() throws {
        let (directory, calls, target) = try makeFixture()
        calls.failures["read target"] = EIO
        let error = #expect(throws: SystemCallError.self) { try AtomicFile.read(target, limit: 100, using: calls) }
        #expect(error == SystemCallError(call: "read", errno: EIO, path: target))
        #expect(calls.steps == ["open target", "fstat target", "read target", "close target"])
        withExtendedLifetime(directory) {}
    }
}
