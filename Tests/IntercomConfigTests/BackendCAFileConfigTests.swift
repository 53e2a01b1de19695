import Foundation
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

    @Test("https:// (so wss://) to an IP address is a problem naming the key; http:// and host names are fine")
    func addressesOverTLS() throws {
        let https = minimalConfig.replacingOccurrences(of: "http://127.0.0.1:1337", with: "https://192.0.2.10:8443")
        let lines = problemLines(load(https))
        #expect(lines.count == 1 && lines[0].hasPrefix("intercom.toml:7: backend.server_url: wss:// to an IP address (192.0.2.10)"),
                "\(lines)")
        let explicit = https + "live_query_url = \"wss://[::1]:8443/parse\"\n"
        #expect(problemLines(load(explicit)).first?.hasPrefix("intercom.toml:8: backend.live_query_url: wss:// to an IP address") == true,
                "\(problemLines(load(explicit)))")
        #expect(problemLines(load(https + "live_query_url = \"wss://intercom.example.org/parse\"\n")).isEmpty)
        #expect(problemLines(load(minimalConfig.replacingOccurrences(of: "http://127.0.0.1", with: "https://intercom.example.org"))).isEmpty)
        #expect(problemLines(load(minimalConfig)).isEmpty)
    }

    @Test("overlays checked away from the device do not read ca_file")
    func unchecked() throws {
        let text = minimalConfig + "ca_file = \"/etc/intercom/ca.pem\"\n"
        let result = load([("intercom.toml", text)], checkSecrets: false)
        #expect(try #require(result.configuration).backend.caFile == "/etc/intercom/ca.pem")
    }
}
