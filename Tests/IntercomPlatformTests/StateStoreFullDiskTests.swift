import Foundation
import Glibc
import IntercomPlatform
import IntercomTestSupport
import Testing

/// A full state directory (issue 23, item 7) is a fault the agent runs through, not an exit: the identity is
/// kept in memory and written when there is room again; a damaged file with a good backup keeps the userID.
@Suite(.serialized) struct StateStoreFullDiskTests {
    @Test func aNewIdentityOnAFullDiskIsReturnedUnsavedAndSavedWhenThereIsRoom() throws {
        let disk = try FullTmpfs()
        let store = StateStore(directory: disk.mountPoint + "/state")
        let (identity, recovered, unsaved) = try store.loadOrCreateIdentity()
        #expect(recovered == nil)
        let failure = try #require(unsaved, "the write into a full tmpfs did not fail")
        #expect(failure.errno == ENOSPC, "\(failure)")
        #expect(!FileManager.default.fileExists(atPath: store.identityPath))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).isEmpty, "no temporary file left behind")

        disk.free()
        try store.save(identity)
        let reloaded = try StateStore(directory: store.directory).loadOrCreateIdentity()
        #expect(reloaded.identity == identity && reloaded.unsaved == nil)
    }

    @Test func aDamagedIdentityOnAFullDiskComesBackFromItsBackup() throws {
        let disk = try FullTmpfs(sizeKiB: 64)
        disk.free()
        let store = StateStore(directory: disk.mountPoint + "/state")
        var identity = try store.loadOrCreateIdentity().identity
        identity.userID = "user-kept"
        try store.save(identity)
        try Data("{\"garbage".utf8).write(to: URL(fileURLWithPath: store.identityPath))
        // Fill what is left, then load: the backup's identity, even though it cannot be written back yet.
        disk.fill()
        let loaded = try store.loadOrCreateIdentity()
        #expect(loaded.identity.userID == "user-kept")
        #expect(loaded.recovered?.restoredFrom == store.identityBackupPath)
        #expect(loaded.unsaved?.errno == ENOSPC, "the disk was not full: \(String(describing: loaded.unsaved))")
    }
}

/// A state directory in RAM (an overlay root, tmpfs) is empty after every boot (issue 23, item 6): the
/// store says so, from `statfs`, so the agent can warn an anonymous device that its userID will not last.
@Suite(.serialized) struct StateStoreVolatilityTests {
    @Test func aTmpfsStateDirectoryIsReportedAsInRAM() throws {
        let disk = try FullTmpfs()
        disk.free()
        #expect(StateStore(directory: disk.mountPoint + "/state").volatileFilesystem() == "tmpfs")
    }

    @Test func aDirectoryThatIsNotThereIsNotReportedAsInRAM() {
        let missing = FileManager.default.currentDirectoryPath + "/no-such-directory-\(UUID())"
        #expect(StateStore(directory: missing).volatileFilesystem() == nil)
    }

    @Test("statfs magics from linux/magic.h", arguments: [
        (UInt64(0x0102_1994), "tmpfs"), (0x8584_58F6, "ramfs"), (0x794C_7630, "overlay"),
        (0xEF53, nil), (0x9123_683E, nil), (0x5846_5342, nil),  // ext4, btrfs, xfs
    ] as [(UInt64, String?)])
    func magics(magic: UInt64, name: String?) {
        #expect(StateStore.volatileFilesystemName(magic: magic) == name)
    }
}
