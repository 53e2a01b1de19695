@testable import IntercomServer
import IntercomTestSupport
import Testing

/// `tls_cert_file`/`tls_key_file` and `INTERCOM_TLS_CERT_FILE`/`INTERCOM_TLS_KEY_FILE`: both or neither,
/// and the derived `signalURL` speaks wss:// when the server serves TLS itself.
@Suite struct TLSConfigurationTests {
    @Test func theFileKeysSetBothFiles() throws {
        let directory = try TemporaryDirectory()
        try directory.write("tls_cert_file = \"/etc/x/cert.pem\"\ntls_key_file = \"/etc/x/key.pem\"\n", to: "server.toml")
        var configuration = ServerConfiguration()
        _ = try configuration.apply(file: directory.path("server.toml"))
        #expect(configuration.tls == TLSFiles(certificateFile: "/etc/x/cert.pem", keyFile: "/etc/x/key.pem"))
    }

    @Test func oneFileKeyAloneIsAnErrorNamingTheOther() throws {
        let directory = try TemporaryDirectory()
        try directory.write("tls_cert_file = \"/etc/x/cert.pem\"\n", to: "cert-only.toml")
        try directory.write("tls_key_file = \"/etc/x/key.pem\"\n", to: "key-only.toml")
        var configuration = ServerConfiguration()
        #expect(throws: ServerConfigurationError.self) { _ = try configuration.apply(file: directory.path("cert-only.toml")) }
        do {
            _ = try configuration.apply(file: directory.path("cert-only.toml"))
        } catch {
            #expect(error.message.contains("cert-only.toml:1"), "\(error.message)")
            #expect(error.message.contains("tls_cert_file is set but tls_key_file is not"), "\(error.message)")
        }
        do {
            _ = try configuration.apply(file: directory.path("key-only.toml"))
            Issue.record("tls_key_file alone was accepted")
        } catch {
            #expect(error.message.contains("tls_key_file is set but tls_cert_file is not"), "\(error.message)")
        }
        #expect(configuration.tls == nil)
    }

    @Test func theEnvironmentSetsBothOrRefusesOne() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(environment: ["INTERCOM_TLS_CERT_FILE": "/c.pem", "INTERCOM_TLS_KEY_FILE": "/k.pem"])
        #expect(configuration.tls == TLSFiles(certificateFile: "/c.pem", keyFile: "/k.pem"))
        var one = ServerConfiguration()
        #expect(throws: ServerConfigurationError(
            "INTERCOM_TLS_KEY_FILE is set but INTERCOM_TLS_CERT_FILE is not: HTTPS needs both")) {
            try one.apply(environment: ["INTERCOM_TLS_KEY_FILE": "/k.pem"])
        }
    }

    @Test func theDerivedSignalURLIsWSSUnderTLSAndAnExplicitOneWins() {
        var configuration = ServerConfiguration()
        #expect(configuration.advertisedSignalURL(boundPort: 8443) == "ws://127.0.0.1:8443/signal")
        configuration.tls = TLSFiles(certificateFile: "/c.pem", keyFile: "/k.pem")
        #expect(configuration.advertisedSignalURL(boundPort: 8443) == "wss://127.0.0.1:8443/signal")
        configuration.publicURL = "https://intercom.example.org/"
        #expect(configuration.advertisedSignalURL(boundPort: 8443) == "wss://intercom.example.org/signal")
        configuration.signalURL = "ws://other.example/signal"
        #expect(configuration.advertisedSignalURL(boundPort: 8443) == "ws://other.example/signal")
    }
}
