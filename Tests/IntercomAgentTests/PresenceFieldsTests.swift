import IntercomAgent
import IntercomConfig
import Testing

/// What a configured device advertises in its `ActiveUsers` row (SYSTEM.md §2).
struct PresenceFieldsTests {
    static func configuration(_ extra: String) throws -> IntercomConfiguration {
        try TestDeviceConfiguration.load(serverURL: "http://127.0.0.1:1", extra)
    }

    @Test func aDeviceAdvertisesViewersAndTheDoorOnlyWhenItHasOneItMayOpen() throws {
        let plain = try PresenceService.fields(for: Self.configuration("[call]\nanswer = \"auto\""))("u1")
        #expect(plain.userTitle == "Gate 3" && plain.deviceKind == "intercom" && plain.answerMode == "auto")
        #expect(plain.capabilities == ["audio", "video", "viewers"])

        let door = try PresenceService.fields(for: Self.configuration("""
            [call]
            allow_door_open = true
            [gpio.door]
            line = "DOOR"
            """))("u1")
        #expect(door.capabilities == ["audio", "video", "viewers", "door"])

        let notAllowed = try PresenceService.fields(for: Self.configuration("[gpio.door]\nline = \"DOOR\""))("u1")
        #expect(notAllowed.capabilities == ["audio", "video", "viewers"])
    }
}
