import IntercomServer
import IntercomTestSupport
import Testing

/// `intercom-server --config FILE`: optional keys, secrets from files, every problem with its line.
@Suite struct ServerConfigFileTests {
    @Test func aFullFileSetsEveryKeyAndReadsSecretsFromFiles() throws {
        let directory = try TemporaryDirectory()
        try directory.write(Array("0123456789abcdef0123456789abcdef\n".utf8), to: "master")
        try directory.write(Array("k2=\(String(repeating: "x", count: 32))\nk1=\(String(repeating: "y", count: 32))\n".utf8),
                            to: "tokens")
        try directory.write(Array("""
            listen = "0.0.0.0:8080"
            database = "/var/lib/x.sqlite"
            master_key_file = "\(directory.path("master"))"
            token_keys_file = "\(directory.path("tokens"))"
            signal_url = "wss://example.org/signal"
            stun_urls = ["stun:stun.example.org:3478"]
            ring_seconds = 45
            rate_limit = "off"
            max_viewers = 2
            web_root = "/srv/web"
            """.utf8), to: "server.toml")
        var configuration = ServerConfiguration()
        let listen = try configuration.apply(file: directory.path("server.toml"))
        #expect(listen == "0.0.0.0:8080")
        #expect(configuration.databasePath == "/var/lib/x.sqlite")
        #expect(configuration.masterKey == "0123456789abcdef0123456789abcdef")
        #expect(configuration.tokenKeys.map(\.kid) == ["k2", "k1"])
        #expect(configuration.signalURL == "wss://example.org/signal")
        #expect(configuration.stunURLs == ["stun:stun.example.org:3478"])
        #expect(configuration.ringTimeToLiveSeconds == 45)
        #expect(configuration.rateLimit.enabled == false)
        #expect(configuration.maxViewersPerSession == 2)
        #expect(configuration.webRoot == "/srv/web")
    }

    @Test func everyProblemIsReportedWithItsLine() throws {
        let directory = try TemporaryDirectory()
        try directory.write(Array("""
            ring_seconds = 0
            master_key = "inline secrets are not accepted"
            signal_url = "http://wrong/scheme"
            turn_secret_file = "\(directory.path("missing"))"
            """.utf8), to: "server.toml")
        var configuration = ServerConfiguration()
        do {
            _ = try configuration.apply(file: directory.path("server.toml"))
            Issue.record("a bad file was accepted")
        } catch {
            let lines = error.message.split(separator: "\n").map(String.init)
            #expect(lines.count == 4, "\(error.message)")
            #expect(lines.contains { $0.contains("server.toml:1:") && $0.contains("ring_seconds") })
            #expect(lines.contains { $0.contains("server.toml:2:") && $0.contains("master_key: unknown key") })
            #expect(lines.contains { $0.contains("server.toml:3:") && $0.contains("ws://") })
            #expect(lines.contains { $0.contains("server.toml:4:") && $0.contains("cannot read") })
        }
    }

    @Test func anEmptyFileChangesNothing() throws {
        let directory = try TemporaryDirectory()
        try directory.write([], to: "server.toml")
        var configuration = ServerConfiguration()
        #expect(try configuration.apply(file: directory.path("server.toml")) == nil)
        #expect(configuration.port == 1337)
        #expect(configuration.applicationId == "intercom")
    }
}
