import Testing
@testable import IntercomConfig

/// The keys for buttons and do-not-disturb on a device nobody watches (issue #23, item 3).
@Suite("Config: stuck buttons, do-not-disturb limit, call button cooldown")
struct UnattendedControlsConfigTests {
    @Test("defaults: stuck after 30 s, do-not-disturb for at most 12 h, a 10 s call button cooldown")
    func defaults() throws {
        let configuration = try #require(load(minimalConfig + "[gpio.buttons.accept]\nline = \"GPIO17\"\n").configuration)
        #expect(configuration.gpio?.stuckAfter == .seconds(30))
        #expect(configuration.call.doNotDisturbLimit == .seconds(12 * 3_600))
        #expect(configuration.call.callButtonCooldown == .seconds(10))
    }

    @Test("values are read")
    func explicitValues() throws {
        let text = minimalConfig + "[call]\ndo_not_disturb_limit = \"2h\"\ncall_button_cooldown = \"30s\"\n"
            + "[gpio]\nstuck_after = \"5s\"\n[gpio.buttons.accept]\nline = \"GPIO17\"\n"
        let configuration = try #require(load(text).configuration)
        #expect(configuration.gpio?.stuckAfter == .seconds(5))
        #expect(configuration.call.doNotDisturbLimit == .seconds(7_200))
        #expect(configuration.call.callButtonCooldown == .seconds(30))
    }

    @Test("values outside their ranges are reported", arguments: [
        "[gpio]\nstuck_after = \"1s\"\n", "[call]\ndo_not_disturb_limit = \"30s\"\n", "[call]\ncall_button_cooldown = \"1h\"\n",
    ])
    func problems(snippet: String) {
        let lines = problemLines(load(minimalConfig + snippet))
        #expect(lines.count == 1 && lines[0].contains("must be between"), "\(lines)")
    }
}
