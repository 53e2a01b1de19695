import IntercomAgent
import IntercomConfig
import Testing

/// What a configured device advertises in its `ActiveUsers` row (SYSTEM.md §2).
struct PresenceFieldsTests {
    static func configuration(_ extra: String) throws -> IntercomConfiguration {
        let text = """
            [identity]
            title = "Gate 3"
            latitude = 52.52
            longitude = 13.405

            [backend]
            server_url = "http://127.0.0.1:1"

            \(extra)
            """
        let result = ConfigLoader(environment: [:], checksSecretFiles: false)
            .load([ConfigSource(name: "intercom.toml", text: text)])
        guard let configuration = result.configuration else {
            throw TestFailure("the test's configuration is invalid: \(result.problems)")
        }
        return configuration
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
