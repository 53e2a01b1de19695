import Foundation
import Glibc
import IntercomPlatform
import IntercomTestSupport
import Testing

/// A damaged identity file and the recovery reason it must produce.
struct DamagedIdentityFile: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expectedReason: String

    var testDescription: String { name }

    static let all: [DamagedIdentityFile] = [
        .init(name: "empty", bytes: [], expectedReason: "empty"),
        .init(name: "whitespace only", bytes: Array(" \n\t\n".utf8), expectedReason: "empty"),
        .init(name: "truncated", bytes: Array(#"{"anonymousAuthID":"a1","installationID":"i"#.utf8), expectedReason: "malformedJSON"),
        .init(name: "zero filled after power cut", bytes: [UInt8](repeating: 0, count: 96), expectedReason: "malformedJSON"),
        .init(name: "garbage bytes", bytes: [0xFF, 0xFE, 0x7B, 0x00, 0x80, 0x22, 0xC3, 0x28], expectedReason: "malformedJSON"),
        .init(name: "wrong type", bytes: Array(#"{"installationID":5,"anonymousAuthID":"a"}"#.utf8), expectedReason: "wrongShape"),
        .init(name: "missing key", bytes: Array(#"{"installationID":"i"}"#.utf8), expectedReason: "wrongShape"),
        .init(name: "null id", bytes: Array(#"{"installationID":null,"anonymousAuthID":"a"}"#.utf8), expectedReason: "wrongShape"),
        .init(name: "array at top level", bytes: Array("[1,2,3]".utf8), expectedReason: "wrongShape"),
        .init(name: "empty id", bytes: Array(#"{"installationID":"","anonymousAuthID":"a"}"#.utf8), expectedReason: "invalidValue"),
    ]
}

extension StateRecovery.Reason {
    var caseName: String {
        switch self {
        case .missing: "missing"
        case .empty: "empty"
        case .tooLarge: "tooLarge"
        case .malformedJSON: "malformedJSON"
        case .wrongShape: "wrongShape"
        case .invalidValue: "invalidValue"
        }
    }
}

@Suite struct StateStoreTests {
    /// Keep `directory` bound to a name for the whole test: it deletes itself when released.
    func makeStore() throws -> (directory: TemporaryDirectory, store: StateStore) {
        let directory = try TemporaryDirectory()
        let store = StateStore(directory: directory.path("state"))
        try store.prepare()
        return (directory, store)
    }

    @Test func prepareCreatesThePrivateStateDirectory() throws {
        let directory = try TemporaryDirectory()
        let store = StateStore(directory: directory.path("var/lib/intercom"))
        try store.prepare()
        try store.prepare()  // idempotent
        var status = stat()
        #expect(stat(store.directory, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFDIR)
        #expect(status.st_mode & 0o7777 == 0o700)
    }

    @Test func prepareRemovesTemporaryFilesLeftByAKilledRun() throws {
        let (directory, store) = try makeStore()
        try directory.write("{", to: "state/.identity.json.tmp-00ff")
        try directory.write("keep", to: "state/identity.json")
        #expect(try store.prepare() == [".identity.json.tmp-00ff"])
        #expect(directory.entries() == ["state"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory) == ["identity.json"])
    }

    @Test func prepareUnderAFileThrowsENOTDIR() throws {
        let directory = try TemporaryDirectory()
        try directory.write("x", to: "file")
        let error = #expect(throws: SystemCallError.self) { try StateStore(directory: directory.path("file/state")).prepare() }
        #expect(error?.errno == ENOTDIR)
    }

    @Test func defaultDirectoryIsVarLibIntercom() {
        #expect(StateStore().directory == "/var/lib/intercom")
        #expect(StateStore().identityPath == "/var/lib/intercom/identity.json")
    }

    @Test func missingIdentityIsCreatedSavedAndStableAcrossLoads() throws {
        let (directory, store) = try makeStore()
        let first = try store.loadOrCreateIdentity()
        #expect(first.recovered == nil)
        #expect(UUID(uuidString: first.identity.installationID) != nil)
        #expect(UUID(uuidString: first.identity.anonymousAuthID) != nil)
        #expect(first.identity.installationID != first.identity.anonymousAuthID)
        #expect(first.identity.userID == nil && first.identity.sessionToken == nil)

        let second = try StateStore(directory: store.directory).loadOrCreateIdentity()
        #expect(second.identity == first.identity)
        #expect(second.recovered == nil)
        #expect(directory.entries() == ["state"])
    }

    @Test func identityFileIsPrivateBecauseItHoldsTheSessionToken() throws {
        let (directory, store) = try makeStore()
        _ = try store.loadOrCreateIdentity()
        #expect(directory.entries() == ["state"])
        var status = stat()
        #expect(stat(store.identityPath, &status) == 0)
        #expect(status.st_mode & 0o7777 == 0o600)
    }

    @Test func savedLoginRoundTrips() throws {
        let (directory, store) = try makeStore()
        defer { withExtendedLifetime(directory) {} }
        var identity = try store.loadOrCreateIdentity().identity
        identity.userID = "xWMyZ4YEGZ"
        identity.sessionToken = "r:1b2c3d4e5f/with+slash"
        try store.save(identity)
        let loaded = try store.loadOrCreateIdentity()
        #expect(loaded.identity == identity)
        #expect(loaded.recovered == nil)
        let text = String(decoding: try AtomicFile.read(store.identityPath), as: UTF8.self)
        #expect(text.contains(#""sessionToken" : "r:1b2c3d4e5f/with+slash""#))
    }

    @Test(arguments: DamagedIdentityFile.all)
    func damagedIdentityIsMovedAsideAndReplaced(damage: DamagedIdentityFile) throws {
        let (directory, store) = try makeStore()
        try directory.write(damage.bytes, to: "state/identity.json")
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z

        let result = try store.loadOrCreateIdentity(now: now)

        let recovery = try #require(result.recovered)
        #expect(recovery.reason.caseName == damage.expectedReason)
        #expect(recovery.path == store.identityPath)
        #expect(recovery.preservedCopyPath == store.identityPath + ".corrupt-20261118T110640Z")
        #expect(directory.contents(of: "state/identity.json.corrupt-20261118T110640Z") == damage.bytes)
        #expect(recovery.description.contains("moved it to \(recovery.preservedCopyPath ?? "-")"))
        #expect(recovery.restoredFrom == nil, "no backup was there: a fresh identity")

        let reloaded = try store.loadOrCreateIdentity()
        #expect(reloaded.recovered == nil)
        #expect(reloaded.identity == result.identity)
    }

    @Test func savingWritesTheBackupToo() throws {
        let (directory, store) = try makeStore()
        defer { withExtendedLifetime(directory) {} }
        var identity = try store.loadOrCreateIdentity().identity
        identity.userID = "u5erID0001"
        try store.save(identity)
        #expect(try AtomicFile.read(store.identityBackupPath) == AtomicFile.read(store.identityPath))
        #expect(try FileManager.default.attributesOfItem(atPath: store.identityBackupPath)[.posixPermissions] as? Int == 0o600)
    }

    /// A power cut or a failing card damaged identity.json: the backup brings back the same userID (a fresh
    /// anonymous login would give the device a new one, and break every caller's saved contact).
    @Test(arguments: DamagedIdentityFile.all)
    func damagedIdentityComesBackFromItsBackup(damage: DamagedIdentityFile) throws {
        let (directory, store) = try makeStore()
        var identity = try store.loadOrCreateIdentity().identity
        identity.userID = "u5erID0001"
        try store.save(identity)
        try directory.write(damage.bytes, to: "state/identity.json")

        let result = try store.loadOrCreateIdentity()

        #expect(result.identity == identity)
        let recovery = try #require(result.recovered)
        #expect(recovery.restoredFrom == store.identityBackupPath)
        #expect(recovery.description.contains("restored the identity from \(store.identityBackupPath)"))
        #expect(try store.loadOrCreateIdentity().recovered == nil, "identity.json was written again")
    }

    @Test func aMissingIdentityComesBackFromItsBackup() throws {
        let (directory, store) = try makeStore()
        var identity = try store.loadOrCreateIdentity().identity
        identity.userID = "u5erID0002"
        try store.save(identity)
        #expect(unlink(store.identityPath) == 0)
        let result = try store.loadOrCreateIdentity()
        #expect(result.identity == identity)
        #expect(result.recovered?.reason == .missing)
        #expect(result.recovered?.preservedCopyPath == nil)
        withExtendedLifetime(directory) {}
    }

    @Test func withBothDamagedAFreshIdentityIsMade() throws {
        let (directory, store) = try makeStore()
        var identity = try store.loadOrCreateIdentity().identity
        identity.userID = "u5erID0003"
        try store.save(identity)
        try directory.write("garbage", to: "state/identity.json")
        try directory.write("{}", to: "state/identity.json.bak")
        let result = try store.loadOrCreateIdentity()
        #expect(result.identity.installationID != identity.installationID)
        #expect(result.recovered?.restoredFrom == nil)
    }

    @Test func oversizedIdentityIsTooLarge() throws {
        let (directory, store) = try makeStore()
        try directory.write([UInt8](repeating: 0x20, count: AtomicFile.defaultReadLimit + 1), to: "state/identity.json")
        let result = try store.loadOrCreateIdentity()
        #expect(result.recovered?.reason == .tooLarge(limit: AtomicFile.defaultReadLimit))
    }

    @Test func recoveriesInTheSameSecondGetDistinctNames() throws {
        let (directory, store) = try makeStore()
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        try directory.write("first", to: "state/identity.json")
        let first = try store.loadOrCreateIdentity(now: now).recovered
        try directory.write("second", to: "state/identity.json")
        let second = try store.loadOrCreateIdentity(now: now).recovered
        #expect(first?.preservedCopyPath == store.identityPath + ".corrupt-20261118T110640Z")
        #expect(second?.preservedCopyPath == store.identityPath + ".corrupt-20261118T110640Z-2")
        #expect(directory.contents(of: "state/identity.json.corrupt-20261118T110640Z-2") == Array("second".utf8))
    }

    @Test func onlyTheNewestCorruptCopiesAreKept() throws {
        let (directory, store) = try makeStore()
        for minute in 0..<6 {
            try directory.write("broken \(minute)", to: "state/identity.json")
            _ = try store.loadOrCreateIdentity(now: Date(timeIntervalSince1970: 1_795_000_000 + Double(minute * 60)))
        }
        let copies = try FileManager.default.contentsOfDirectory(atPath: store.directory)
            .filter { $0.contains(".corrupt-") }.sorted()
        #expect(directory.contents(of: "state/identity.json.corrupt-20261118T111140Z") == Array("broken 5".utf8))
        #expect(copies == [
            "identity.json.corrupt-20261118T110940Z",
            "identity.json.corrupt-20261118T111040Z",
            "identity.json.corrupt-20261118T111140Z",
        ])
        #expect(copies.count == StateStore.corruptCopiesKept)
    }

    @Test func unreadableIdentityThrowsInsteadOfDiscardingIt() throws {
        let (directory, store) = try makeStore()
        defer { withExtendedLifetime(directory) {} }
        #expect(mkdir(store.identityPath, 0o700) == 0)
        let error = #expect(throws: SystemCallError.self) { try store.loadOrCreateIdentity() }
        #expect(error?.errno == EINVAL)
        var status = stat()
        #expect(stat(store.identityPath, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR)
    }

    @Test func missingDirectoryIsReportedNotCreatedImplicitly() throws {
        let directory = try TemporaryDirectory()
        let store = StateStore(directory: directory.path("never-prepared"))
        let error = #expect(throws: SystemCallError.self) { try store.loadOrCreateIdentity() }
        #expect(error?.errno == ENOENT)
    }
}
