import IntercomTestSupport
import Testing
@testable import IntercomConfig

@Suite("Config: [backend] ca_file (issue #20)")
struct BackendCAFileConfigTests {
    static let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"

    @Test("absent by default; an absolute path to a readable PEM bundle is kept")
    func accepted() throws {
        #expect(try #require(load(minimalConfig).configuration).backend.caFile == nil)
        let directory = try TemporaryDirectory()
        try directory.write(Self.pem, to: "ca.pem")
        let text = minimalConfig + "ca_file = \"\(directory.path("ca.pem"))\"\n"
        #expect(try #require(load(text).configuration).backend.caFile == directory.path("ca.pem"))
    }

    @Test("a relative, missing or non-PEM ca_file is a problem at its line")
    func problems() throws {
        let directory = try TemporaryDirectory()
        try directory.write("just text\n", to: "notes.txt")
        #expect(problemLines(load(minimalConfig + "ca_file = \"ca.pem\"\n")) == [
            "intercom.toml:8: backend.ca_file: expected an absolute path, got \"ca.pem\"",
        ])
        let missing = problemLines(load(minimalConfig + "ca_file = \"\(directory.path("missing.pem"))\"\n"))
        #expect(missing.count == 1 && missing[0].hasPrefix("intercom.toml:8: backend.ca_file: cannot read \(directory.path("missing.pem"))"),
                "\(missing)")
        #expect(problemLines(load(minimalConfig + "ca_file = \"\(directory.path("notes.txt"))\"\n")) == [
            "intercom.toml:8: backend.ca_file: \(directory.path("notes.txt")) holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
        ])
    }

    @Test("overlays checked away from the device do not read ca_file")
    func unchecked() throws {
        let text = minimalConfig + "ca_file = \"/etc/intercom/ca.pem\"\n"
        let result = load([("intercom.toml", text)], checkSecrets: false)
        #expect(try #require(result.configuration).backend.caFile == "/etc/intercom/ca.pem")
    }
}
