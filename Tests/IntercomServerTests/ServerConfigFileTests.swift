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

    @Test func securityKeysSetTheLimitsProxiesAndPublicURL() throws {
        let directory = try TemporaryDirectory()
        try directory.write(Array("""
            public_url = "https://intercom.example.org"
            trusted_proxies = ["127.0.0.1/32", "10.0.0.0/8"]
            master_key_ips = ["127.0.0.1", "192.0.2.0/24"]
            max_connections = 500
            idle_timeout_seconds = 20
            header_timeout_seconds = 5
            max_list_items = 50
            max_where_bytes = 4096
            max_where_depth = 2
            max_subscriptions = 10
            query_time_budget_ms = 250
            """.utf8), to: "server.toml")
        var configuration = ServerConfiguration()
        _ = try configuration.apply(file: directory.path("server.toml"))
        #expect(configuration.publicURL == "https://intercom.example.org")
        #expect(configuration.trustedProxies.map(\.description) == ["127.0.0.1/32", "10.0.0.0/8"])
        #expect(configuration.masterKeyIPs == ["127.0.0.1", "192.0.2.0/24"])
        #expect(configuration.connectionLimits.maxConnections == 500)
        #expect(configuration.connectionLimits.idleTimeoutSeconds == 20)
        #expect(configuration.connectionLimits.headerTimeoutSeconds == 5)
        #expect(configuration.queryLimits.maxListItems == 50)
        #expect(configuration.queryLimits.maxWhereBytes == 4096)
        #expect(configuration.queryLimits.maxNestingDepth == 2)
        #expect(configuration.queryLimits.maxSubscriptionsPerSocket == 10)
        #expect(configuration.queryLimits.timeBudgetMilliseconds == 250)
    }

    @Test func aBadProxyBlockIsReported() throws {
        let directory = try TemporaryDirectory()
        try directory.write(Array("""
            trusted_proxies = ["proxy.example.org"]
            public_url = "intercom.example.org"
            """.utf8), to: "server.toml")
        var configuration = ServerConfiguration()
        do {
            _ = try configuration.apply(file: directory.path("server.toml"))
            Issue.record("a bad file was accepted")
        } catch {
            #expect(error.message.contains("trusted_proxies"), "\(error.message)")
            #expect(error.message.contains("public_url"), "\(error.message)")
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
