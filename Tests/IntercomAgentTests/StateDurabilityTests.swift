import Foundation
import IntercomAgent
import IntercomPlatform
import IntercomTestSupport
import Logging
import Testing

/// `state_volatile` (issue 23, item 6): an anonymous device whose state directory is in RAM signs up anew at
/// every boot; a provisioned one keeps its userID through its credentials and is not warned about.
@Suite(.serialized) struct StateDurabilityTests {
    @Test func anAnonymousDeviceWithItsStateInRAMIsWarnedAProvisionedOneIsNot() async throws {
        let disk = try FullTmpfs()
        disk.free()
        let store = StateStore(directory: disk.mountPoint + "/state")
        let anonymous = AgentStatusBoard(title: "Gate", location: nil)
        await AgentRuntime.checkStateDurability(store, login: .anonymous, status: anonymous, logger: Logger(label: "test"))
        #expect(await anonymous.snapshot.warnings == ["state_volatile"])

        let provisioned = AgentStatusBoard(title: "Gate", location: nil)
        await AgentRuntime.checkStateDurability(store, login: .password(username: "gate-1", passwordFile: "/dev/null"),
                                                status: provisioned, logger: Logger(label: "test"))
        #expect(await provisioned.snapshot.warnings == [])
    }

    @Test func aStateDirectoryOnDiskIsNotWarnedAbout() async throws {
        let directory = FileManager.default.currentDirectoryPath
        try #require(StateStore(directory: directory).volatileFilesystem() == nil,
                     "the build directory is itself in RAM here: this test needs a disk-backed one")
        let status = AgentStatusBoard(title: "Gate", location: nil)
        await AgentRuntime.checkStateDurability(StateStore(directory: directory), login: .anonymous, status: status,
                                                logger: Logger(label: "test"))
        #expect(await status.snapshot.warnings == [])
    }
}
