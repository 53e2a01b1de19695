import IntercomTestSupport
import Testing
@testable import IntercomConfig

@Suite("Config: [whep] (issue #19)")
struct WHEPConfigTests {
    func whepSettings(_ text: String, environment: [String: String] = [:]) throws -> WHEPSettings {
        let configuration = try #require(load(text, environment: environment).configuration)
        return try #require(configuration.whep)
    }

    @Test("absent by default (disabled); listen and the token file are read")
    func values() throws {
        #expect(try #require(load(minimalConfig).configuration).whep == nil)
        let secrets = try TemporaryDirectory()
        try secrets.write("s3cret\n", to: "whep.token")
        let text = minimalConfig + "[whep]\nlisten = \"0.0.0.0:8889\"\ntoken_file = \"\(secrets.path("whep.token"))\"\n"
        let whep = try whepSettings(text)
        #expect(whep.host == "0.0.0.0" && whep.port == 8889 && whep.tokenFile == secrets.path("whep.token"))
    }

    @Test("the token may come from the systemd credential whep.token")
    func credential() throws {
        let credentials = try TemporaryDirectory()
        try credentials.write("s3cret\n", to: "whep.token")
        let text = minimalConfig + "[whep]\nlisten = \"[::1]:8889\"\n"
        let whep = try whepSettings(text, environment: ["CREDENTIALS_DIRECTORY": credentials.path])
        #expect(whep.host == "::1" && whep.port == 8889 && whep.tokenFile == credentials.path("whep.token"))
    }

    @Test("missing keys, a bad address and an empty or unreadable token file are problems at their lines")
    func problems() throws {
        #expect(problemLines(load(minimalConfig + "[whep]\n")) == [
            "intercom.toml:8: whep: missing required key \"listen\"",
            "intercom.toml:8: whep: missing required key \"token_file\" (or the systemd credential whep.token)",
        ])
        let secrets = try TemporaryDirectory()
        try secrets.write("\n", to: "empty")
        let empty = secrets.path("empty")
        #expect(problemLines(load(minimalConfig + "[whep]\nlisten = \"0.0.0.0:99999\"\ntoken_file = \"\(empty)\"\n")) == [
            "intercom.toml:9: whep.listen: expected \"HOST:PORT\" with a port from 1 to 65535, got \"0.0.0.0:99999\"",
            "intercom.toml:10: whep.token_file: secret file \(empty) is empty",
        ])
        let missing = secrets.path("nope")
        let unreadable = problemLines(load(minimalConfig + "[whep]\nlisten = \"0.0.0.0:8889\"\ntoken_file = \"\(missing)\"\n"))
        #expect(unreadable.count == 1 && unreadable[0].hasPrefix("intercom.toml:10: whep.token_file: cannot read secret file \(missing): "))
        #expect(problemLines(load(minimalConfig + "[whep]\nlisten = \"0.0.0.0:8889\"\ntoken_file = \"\(empty)\"\nport = 1\n")).contains {
            $0.hasPrefix("intercom.toml:11: whep.port: unknown key \"port\"")
        })
    }
}
