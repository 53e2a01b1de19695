import Foundation
@testable import IntercomServer
import IntercomTestSupport
import Logging
import Testing

/// Storage durability settings, persistence across restarts, and the timestamp format.
@Suite struct StorageTests {
    /// What is acknowledged is durable: SQLite in WAL with `synchronous = FULL`; PostgreSQL with
    /// `synchronous_commit` and `fsync` on (a commit returns once its WAL record is flushed).
    @Test func commitsAreDurableBeforeTheyAreAcknowledged() async throws {
        let server = try await TestServer()
        if server.backend.database.isShared {
            let settings = try await server.backend.database.read { db in
                (try db.value(String.self, "SHOW synchronous_commit"), try db.value(String.self, "SHOW fsync"))
            }
            #expect(settings.0 == "on")
            #expect(settings.1 == "on")
        } else {
            let settings = try await server.backend.database.durabilitySettings()
            #expect(settings.synchronous == 2)
            #expect(settings.journalMode == "wal")
            #expect(try await server.backend.database.integrityCheck() == "ok")
        }
    }

    @Test func generatedTokenKeyAndSessionsSurviveARestart() async throws {
        let directory = try TemporaryDirectory(prefix: "intercom-restart")
        var configuration = ServerConfiguration()
        configuration.databasePath = directory.path("db.sqlite")
        configuration.databaseURL = TestPostgres.freshURL()
        configuration.passwordIterations = 10
        let clock = TestClock()
        let first = try await IntercomBackend(configuration: configuration, clock: clock.serverClock, logger: TestServer.logger)
        let application = ServerApplication.make(backend: first, logger: TestServer.logger, sweeping: false)
        let (user, call) = try await application.test(.router) { raw in
            let client = ParseTestClient(client: raw)
            let user = try await client.anonymousUser()
            let call = try await client.create("ActiveSessions", CallSessionTests.call(from: user, to: "rx"), as: user)
            return (user, call)
        }
        let second = try await IntercomBackend(configuration: configuration, clock: clock.serverClock, logger: TestServer.logger)
        #expect(second.keyRing.signingKid == first.keyRing.signingKid)
        let sessionID = try #require(call["sessionID"]?.stringValue)
        let claims = try await second.tokenVerifier.verify(try #require(call["publisherToken"]?.stringValue),
                                                           sessionID: sessionID, now: clock.now)
        #expect(claims.sub == "rx")
        let again = ServerApplication.make(backend: second, logger: TestServer.logger, sweeping: false)
        try await again.test(.router) { raw in
            let me = try await ParseTestClient(client: raw).send(.get, "/parse/users/me", token: user.sessionToken)
            #expect(me["objectId"] == .string(user.objectId))
        }
    }

    @Test func timestampsAreISO8601WithMilliseconds() {
        #expect(ParseTimestamp.format(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(ParseTimestamp.format(milliseconds: 1_704_111_825_678) == "2024-01-01T12:23:45.678Z")
        #expect(ParseTimestamp.format(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(ParseTimestamp.format(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(ParseTimestamp.parse("2024-01-01T12:23:45.678Z") == 1_704_111_825_678)
        #expect(ParseTimestamp.parse("2024-01-01T12:23:45Z") == 1_704_111_825_000)
        #expect(ParseTimestamp.parse("2024-01-01T12:23:45.6789Z") == 1_704_111_825_678)
        for bad in ["", "2024-02-30T00:00:00.000Z", "2024-01-01T25:00:00Z", "2024-01-01T12:23:45.678", "yesterday"] {
            #expect(ParseTimestamp.parse(bad) == nil, "\(bad)")
        }
        var random = SplitMix64(seed: 8601)
        for _ in 0..<2000 {
            let millis = Int64(random.next() % 8_000_000_000_000) - 1_000_000_000_000
            #expect(ParseTimestamp.parse(ParseTimestamp.format(milliseconds: millis)) == millis)
        }
    }

    @Test func environmentConfiguration() throws {
        var configuration = ServerConfiguration()
        try configuration.apply(environment: [
            "INTERCOM_SERVER_DB": "/var/lib/intercom/server.sqlite", "INTERCOM_MASTER_KEY": "m",
            "INTERCOM_TURN_SECRET": "t", "INTERCOM_TURN_URLS": "turn:a:3478, turns:a:5349",
            "INTERCOM_HEARTBEAT_SECONDS": "30", "INTERCOM_RATE_LIMIT": "5/50",
        ])
        #expect(configuration.databasePath == "/var/lib/intercom/server.sqlite")
        #expect(configuration.masterKey == "m")
        #expect(configuration.turnURLs == ["turn:a:3478", "turns:a:5349"])
        #expect(configuration.heartbeatSeconds == 30)
        #expect(configuration.rateLimit.burst == 50)
        #expect(configuration.applicationId == "intercom")
        var bad = ServerConfiguration()
        #expect(throws: ServerConfigurationError.self) { try bad.apply(environment: ["INTERCOM_TOKEN_SECONDS": "999999"]) }
        #expect(throws: ServerConfigurationError.self) { try bad.apply(environment: ["INTERCOM_RATE_LIMIT": "fast"]) }
    }
}
