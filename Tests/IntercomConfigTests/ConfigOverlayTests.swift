import IntercomPlatform
import IntercomTestSupport
import Testing
@testable import IntercomConfig

@Suite("Overlays from conf.d, applied in name order")
struct ConfigOverlayTests {
    @Test("later files override single keys; tables merge; arrays are replaced whole")
    func inMemoryOrder() throws {
        let base = minimalConfig + "[call]\nanswer = \"button\"\nallow_callers = [\"a\", \"b\"]\nring_timeout = \"20s\"\n"
        let first = "[call]\nanswer = \"auto-after\"\nallow_callers = [\"c\"]\n"
        let second = "[call]\nanswer = \"auto\"\n[identity]\ntitle = \"Gate 4\"\n"
        let configuration = try #require(load([("base.toml", base), ("10-a.toml", first), ("20-b.toml", second)]).configuration)
        #expect(configuration.call.answer == .auto)
        #expect(configuration.call.allowCallers == ["c"])
        #expect(configuration.call.ringTimeout == .seconds(20))
        #expect(configuration.identity.title == "Gate 4")
        #expect(configuration.identity.latitude == 52.52)
    }

    @Test("a problem points at the file that set the value last")
    func problemLocationFollowsOverlay() {
        let result = load([("base.toml", minimalConfig + "[video]\nfps = 30\n"), ("50-device.toml", "\n\n[video]\nfps = 0\n")])
        #expect(problemLines(result) == ["50-device.toml:4: video.fps: must be between 1 and 60, got 0"])
    }

    @Test("conf.d on disk: *.toml in byte order, hidden and other files ignored, missing directory fine")
    func onDisk() throws {
        let directory = try TemporaryDirectory()
        try directory.write(minimalConfig, to: "intercom.toml")
        let loader = ConfigLoader(environment: [:])
        #expect(try loader.readSources(mainPath: directory.path("intercom.toml")).count == 1)

        try Directories.createIfMissing(directory.path("conf.d"), permissions: 0o755)
        try directory.write("[identity]\ntitle = \"B\"\n", to: "conf.d/20-b.toml")
        try directory.write("[identity]\ntitle = \"A\"\n", to: "conf.d/10-a.toml")
        try directory.write("[identity]\ntitle = \"Z\"\n", to: "conf.d/Z-upper.toml")
        try directory.write("[identity]\ntitle = \"hidden\"\n", to: "conf.d/.30-hidden.toml")
        try directory.write("[identity]\ntitle = \"backup\"\n", to: "conf.d/40-c.toml.bak")
        let sources = try loader.readSources(mainPath: directory.path("intercom.toml"))
        #expect(sources.map { $0.name.split(separator: "/").last.map(String.init) ?? "" }
            == ["intercom.toml", "10-a.toml", "20-b.toml", "Z-upper.toml"])
        // Byte order puts upper-case "Z-upper" after digits: it wins.
        #expect(try loader.load(mainPath: directory.path("intercom.toml")).configuration?.identity.title == "Z")
    }

    @Test("an unreadable main file is an error of its own, not a problem list")
    func unreadable() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: ConfigUnreadableError.self) {
            try ConfigLoader(environment: [:]).load(mainPath: directory.path("missing.toml"))
        }
        try Directories.createIfMissing(directory.path("a-directory.toml"), permissions: 0o755)
        #expect(throws: ConfigUnreadableError.self) {
            try ConfigLoader(environment: [:]).load(mainPath: directory.path("a-directory.toml"))
        }
    }

    @Test("INTERCOM_CONFIG and --config choose the main file, in that precedence")
    func mainPathPrecedence() {
        let loader = ConfigLoader(environment: ["INTERCOM_CONFIG": "/env.toml"])
        #expect(loader.mainPath(explicit: "/cli.toml") == "/cli.toml")
        #expect(loader.mainPath(explicit: nil) == "/env.toml")
        #expect(ConfigLoader(environment: [:]).mainPath(explicit: nil) == "/etc/intercom/intercom.toml")
    }

    @Test("the state directory: INTERCOM_STATE_DIR > config > $STATE_DIRECTORY > default")
    func stateDirectory() throws {
        let withKey = minimalConfig + "[state]\ndirectory = \"/srv/intercom\"\n"
        #expect(load(withKey, environment: ["INTERCOM_STATE_DIR": "/tmp/x"]).configuration?.state.directory == "/tmp/x")
        #expect(load(withKey, environment: ["STATE_DIRECTORY": "/var/lib/y"]).configuration?.state.directory == "/srv/intercom")
        #expect(load(minimalConfig, environment: ["STATE_DIRECTORY": "/var/lib/y:/var/lib/z"]).configuration?.state.directory == "/var/lib/y")
        #expect(problemLines(load(minimalConfig + "[state]\ndirectory = \"relative\"\n"))
            == ["intercom.toml:9: state.directory: must be an absolute path, got \"relative\""])
    }
}
