import Testing
@testable import IntercomConfig

@Suite("Config validation: every class of problem, with key path and line")
struct ConfigValidationTests {
    @Test("a minimal config is valid and gets the documented defaults")
    func minimalDefaults() throws {
        let configuration = try #require(load(minimalConfig).configuration)
        #expect(configuration.identity == IdentitySettings(title: "Gate 3", latitude: 52.52, longitude: 13.405))
        #expect(configuration.backend.liveQueryURL.absoluteString == "ws://127.0.0.1:1337/parse")
        #expect(configuration.backend.applicationID == "intercom")
        #expect(configuration.backend.login == .anonymous)
        #expect(configuration.presence.heartbeat == .seconds(60))
        #expect(configuration.call.answer == .auto)
        #expect(configuration.call.ringTimeout == .seconds(30))
        #expect(configuration.call.maxViewers == 4)
        #expect(configuration.video.source == .auto)
        #expect((configuration.video.width, configuration.video.height, configuration.video.fps) == (640, 480, 30))
        #expect(configuration.audio.sampleRate == 48_000)
        #expect(configuration.gpio == nil)
        #expect((configuration.metrics.host, configuration.metrics.port) == ("127.0.0.1", 9464))
        #expect(configuration.logging.level == .info)
        #expect(configuration.state.directory == "/var/lib/intercom")
    }

    @Test("missing required keys and tables are named")
    func missingRequired() {
        #expect(problemLines(load("[identity]\ntitle = \"x\"\n")) == [
            "intercom.toml:1: identity: missing required key \"latitude\"",
            "intercom.toml:1: identity: missing required key \"longitude\"",
            "intercom.toml:1: missing required table [backend] (server_url)",
        ])
    }

    @Test("wrong types name the expected and the actual type", arguments: [
        ("[video]\nfps = \"30\"\n", "intercom.toml:9: video.fps: expected an integer, got string"),
        ("[identity2]\n", "intercom.toml:8: identity2: unknown key \"identity2\" (did you mean \"identity\"?)"),
        ("[audio]\nenabled = 1\n", "intercom.toml:9: audio.enabled: expected true or false, got integer"),
        ("[call]\nallow_callers = \"bob\"\n", "intercom.toml:9: call.allow_callers: expected an array of strings, got string"),
        ("[call]\nallow_callers = [\"bob\", 3]\n", "intercom.toml:9: call.allow_callers[1]: expected a string, got integer"),
        ("video = 3\n", "intercom.toml:1: video: expected a table, got integer"),
        ("[call]\nring_timeout = true\n", "intercom.toml:9: call.ring_timeout: expected a duration such as \"30s\", got boolean"),
    ])
    func wrongTypes(snippet: String, expected: String) {
        // Snippets go after the minimal config; a top-level key must come before any table header.
        let text = snippet.hasPrefix("[") ? minimalConfig + snippet : snippet + minimalConfig
        #expect(problemLines(load(text)) == [expected])
    }

    @Test("latitude and longitude outside the globe are refused", arguments: [
        ("90.5", "0", "identity.latitude: must be between -90 and 90, got 90.5"),
        ("-91", "0", "identity.latitude: must be between -90 and 90, got -91.0"),
        ("0", "180.01", "identity.longitude: must be between -180 and 180, got 180.01"),
        ("0", "nan", "identity.longitude: must be between -180 and 180, got nan"),
    ])
    func geopointRange(latitude: String, longitude: String, expected: String) {
        let text = """
            [identity]
            title = "Gate"
            latitude = \(latitude)
            longitude = \(longitude)
            [backend]
            server_url = "http://h/parse"
            """
        let line = expected.hasPrefix("identity.latitude") ? 3 : 4
        #expect(problemLines(load(text)) == ["intercom.toml:\(line): " + expected])
    }

    @Test("zero, negative and too-large numbers and durations", arguments: [
        ("[video]\nfps = 0", "video.fps: must be between 1 and 60, got 0"),
        ("[video]\nwidth = 100000", "video.width: must be between 160 and 1920, got 100000"),
        ("[call]\nring_timeout = \"-5s\"", "call.ring_timeout: must not be negative"),
        ("[call]\nring_timeout = -5", "call.ring_timeout: must not be negative"),
        ("[call]\nmax_duration = \"5 minutes\"", "call.max_duration: expected a duration such as \"500ms\", \"30s\", \"2m\" or \"1h\""),
        ("[call]\nring_timeout = \"2h\"", "call.ring_timeout: must be between 5s and 10m, got 2h"),
        ("[presence]\nheartbeat = \"1s\"", "presence.heartbeat: must be between 5s and 1h, got 1s"),
        ("[call]\nmax_viewers = 0", "call.max_viewers: must be between 1 and 8, got 0"),
        ("[audio]\nsample_rate = 44100", "audio.sample_rate: must be 8000, 16000, 24000 or 48000 (rates Opus encodes), got 44100"),
        ("[video]\nbitrate_min_kbps = 900", "video.bitrate_min_kbps: needs bitrate_min_kbps ≤ bitrate_start_kbps ≤ bitrate_max_kbps, got 900 ≤ 800 ≤ 1500"),
        ("[video]\nencoder_speed = 4", "video.encoder_speed: must be between -16 and -1, got 4"),
        ("[logging]\nlevel = \"verbose\"", "logging.level: must be one of \"trace\", \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\", got \"verbose\""),
    ])
    func ranges(snippet: String, expected: String) {
        let lines = problemLines(load(minimalConfig + snippet + "\n"))
        #expect(lines == ["intercom.toml:9: " + expected])
    }

    @Test("malformed URLs and URLs with credentials are refused", arguments: [
        ("server_url = \"not a url\"", "backend.server_url: expected a URL starting with http:// or https:// and naming a host, got \"not a url\""),
        ("server_url = \"ftp://host/parse\"", "backend.server_url: expected a URL starting with http:// or https:// and naming a host, got \"ftp://host/parse\""),
        ("server_url = \"javascript:alert(1)\"", "backend.server_url: expected a URL starting with http:// or https:// and naming a host, got \"javascript:alert(1)\""),
        ("server_url = \"http://user:pw@host/parse\"", "backend.server_url: must not contain credentials; use backend.username and backend.password_file"),
    ])
    func urls(line: String, expected: String) {
        let text = "[identity]\ntitle = \"G\"\nlatitude = 0\nlongitude = 0\n[backend]\n\(line)\n"
        #expect(problemLines(load(text)) == ["intercom.toml:6: " + expected])
    }

    @Test("a live_query_url must be ws:// or wss://; https gives wss by default")
    func liveQueryURL() throws {
        let bad = problemLines(load(minimalConfig + "live_query_url = \"http://h/parse\"\n".replacingOccurrences(of: "\n", with: "\n")))
        // The key lands in [backend] because it follows the server_url line of the minimal config.
        #expect(bad == ["intercom.toml:8: backend.live_query_url: expected a URL starting with ws:// or wss:// and naming a host, got \"http://h/parse\""])
        let secure = try #require(load(minimalConfig.replacingOccurrences(of: "http://127.0.0.1:1337", with: "https://example.org")).configuration)
        #expect(secure.backend.liveQueryURL.absoluteString == "wss://example.org/parse")
    }

    @Test("unknown keys get a did-you-mean suggestion; unrelated words do not")
    func unknownKeys() {
        let lines = problemLines(load(minimalConfig + "[video]\nwidht = 640\nframerate_x = 3\n[call]\nanswr = \"auto\"\n"))
        #expect(lines == [
            "intercom.toml:9: video.widht: unknown key \"widht\" (did you mean \"width\"?)",
            "intercom.toml:10: video.framerate_x: unknown key \"framerate_x\"",
            "intercom.toml:12: call.answr: unknown key \"answr\" (did you mean \"answer\"?)",
        ])
    }

    @Test("choices suggest the closest word")
    func choiceSuggestion() {
        #expect(problemLines(load(minimalConfig + "[call]\nanswer = \"buton\"\n")) == [
            "intercom.toml:9: call.answer: must be one of \"auto\", \"button\", \"auto-after\", got \"buton\" (did you mean \"button\"?)",
        ])
    }

    @Test("two buttons on one GPIO line, and a LED on a button's line, are refused")
    func duplicateLines() {
        let gpio = """
            [gpio]
            chip = "gpiochip0"
            [gpio.buttons.accept]
            line = "GPIO17"
            [gpio.buttons.hangup]
            line = "GPIO17"
            [gpio.buttons.call]
            offset = 5
            [gpio.leds.status]
            offset = 5

            """
        #expect(problemLines(load(minimalConfig + gpio)) == [
            "intercom.toml:13: gpio.buttons.hangup.line: line \"GPIO17\" is already used by gpio.buttons.accept",
            "intercom.toml:17: gpio.leds.status.offset: offset 5 is already used by gpio.buttons.call",
        ])
    }

    @Test("gpio lines need exactly one of line and offset; offsets need a chip")
    func gpioLineRules() {
        let text = minimalConfig + """
            [gpio.buttons.accept]
            line = "GPIO17"
            offset = 17
            [gpio.buttons.call]
            offset = 4
            [gpio.door]
            pulse = "50ms"

            """
        #expect(problemLines(load(text)) == [
            "intercom.toml:8: gpio.buttons.accept: set either line or offset, not both",
            "intercom.toml:12: gpio.buttons.call.offset: a line offset needs gpio.chip to name the chip",
            "intercom.toml:14: gpio.door.pulse: must be between 100ms and 30s, got 50ms",
            "intercom.toml:13: gpio.door: needs line (e.g. \"GPIO17\") or offset",
        ].sorted { lhs, rhs in lineNumber(lhs) < lineNumber(rhs) })
    }

    @Test("a TOML syntax error is reported with its line and nothing else is checked")
    func syntaxError() {
        let result = load(minimalConfig + "[video]\nfps = = 3\n")
        #expect(result.configuration == nil)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.location?.line == 9)
        #expect(result.problems.first?.keyPath == "")
    }

    @Test("quiet hours and call target tables are validated")
    func quietHoursAndTarget() throws {
        let good = try #require(load(minimalConfig + """
            [call.quiet_hours]
            start = "22:00"
            end = "07:30"
            [call.target]
            title = "Reception"
            radius_km = 0.5

            """).configuration)
        #expect(good.call.quietHours == .init(startMinute: 22 * 60, endMinute: 7 * 60 + 30, answer: .button))
        #expect(good.call.target == .nearest(title: "Reception", radiusKilometres: 0.5))
        let bad = problemLines(load(minimalConfig + """
            [call.quiet_hours]
            start = "25:00"
            end = "7:30"
            [call.target]
            user_id = "abc"
            title = "Reception"

            """))
        #expect(bad == [
            "intercom.toml:9: call.quiet_hours.start: expected a time \"HH:MM\" (00:00 to 23:59), got \"25:00\"",
            "intercom.toml:10: call.quiet_hours.end: expected a time \"HH:MM\" (00:00 to 23:59), got \"7:30\"",
            "intercom.toml:11: call.target: set either user_id or title, not both",
        ])
    }

    @Test("every problem of a file is reported at once")
    func everyProblemAtOnce() {
        let text = """
            [identity]
            title = ""
            latitude = 100
            longitude = -200
            [backend]
            server_url = "nope"
            [video]
            fps = 0
            """
        #expect(load(text).problems.count == 5)
    }
}

private func lineNumber(_ line: String) -> Int {
    Int(line.split(separator: ":")[1]) ?? 0
}

import Foundation
