import Foundation
@testable import IntercomServer
import IntercomTestSupport
import Testing

/// The PostgreSQL engine's pure parts: `database_url`, placeholder numbering, and the bus payloads.
/// (The engine itself runs every server suite when `Tests/postgres/run.sh` sets INTERCOM_TEST_DATABASE_URL.)
@Suite struct PostgresEngineTests {
    @Test func aFullURLIsReadWithItsSchemaAndTLSMode() throws {
        let settings = try PostgresSettings(
            url: "postgres://door%40fleet:p%3Ass@db.example:6432/intercom?search_path=site_7&sslmode=require")
        #expect(settings.host == "db.example")
        #expect(settings.port == 6432)
        #expect(settings.username == "door@fleet")
        #expect(settings.password == "p:ss")
        #expect(settings.database == "intercom")
        #expect(settings.schema == "site_7")
        #expect(settings.tls == .require)
        #expect(settings.redactedURL == "postgres://door@fleet@db.example:6432/intercom?search_path=site_7")
        #expect(!settings.redactedURL.contains("p:ss"))
    }

    @Test func defaultsArePort5432SchemaPublicAndNoTLS() throws {
        let settings = try PostgresSettings(url: "postgresql://intercom@localhost/intercom")
        #expect(settings.port == 5432)
        #expect(settings.schema == "public")
        #expect(settings.tls == .disable)
        #expect(try PostgresSettings(url: "postgres://u@h/db?sslmode=verify-full").tls == .verifyFull)
        #expect(settings.password == nil)
    }

    @Test(arguments: [
        ("mysql://u@h/db", "expected postgres://"),
        ("postgres://h/db", "no user"),
        ("postgres://u@h", "no database name"),
        ("postgres://u@h/db?search_path=Bad-Name", "search_path must be"),
        ("postgres://u@h/db?search_path=x;DROP", "search_path must be"),
        ("postgres://u@h/db?sslmode=prefer", "sslmode prefer is not supported"),
        ("postgres://u@h/db?pool=9", "unknown parameter pool"),
        ("not a url", "expected postgres://"),
    ])
    func badURLsAreRefusedWithTheReason(url: String, reason: String) {
        #expect {
            _ = try PostgresSettings(url: url)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func aPasswordNeverAppearsInTheErrorAboutItsURL() {
        #expect {
            _ = try PostgresSettings(url: "postgres://u:hunter2@/db")
        } throws: { error in
            !"\(error)".contains("hunter2")
        }
    }

    @Test func aConfigFileNamesABadDatabaseURL() throws {
        let directory = try TemporaryDirectory(prefix: "pg-config")
        try directory.write(#"database_url = "postgres://u@h""#, to: "bad.toml")
        try directory.write(#"database_url = "postgres://u:pw@h:5433/db""#, to: "good.toml")
        var bad = ServerConfiguration()
        #expect {
            _ = try bad.apply(file: directory.path("bad.toml"))
        } throws: { error in
            "\(error)".contains("database_url") && "\(error)".contains("no database name")
        }
        var good = ServerConfiguration()
        _ = try good.apply(file: directory.path("good.toml"))
        #expect(good.databaseURL == "postgres://u:pw@h:5433/db")
    }

    @Test func placeholdersAreNumberedOutsideQuotes() {
        #expect(PostgresTransaction.numberedPlaceholders("SELECT a FROM t WHERE b = ? AND c IN (?, ?)")
            == "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)")
        #expect(PostgresTransaction.numberedPlaceholders(#"SELECT '?' , "a?b" FROM t WHERE x = ?"#)
            == #"SELECT '?' , "a?b" FROM t WHERE x = $1"#)
        #expect(PostgresTransaction.numberedPlaceholders("SELECT 1") == "SELECT 1")
    }

    @Test func aChangeCrossesTheBusUnchanged() throws {
        let before = StoredObject(objectId: "a1", createdAt: 1, updatedAt: 2,
                                  fields: ["receiverID": "door", "n": 1.5, "ACL": ["*": ["read": true]]])
        var after = before
        after.updatedAt = 3
        after.fields["state"] = "answered"
        let message = ChangeMessage(.updated("ActiveSessions", from: before, to: after))
        let decoded = try #require(ChangeMessage(payload: message.payload))
        #expect(decoded == message)
        #expect(decoded.change.original == before)
        #expect(decoded.change.current == after)
        #expect(decoded.change.className == "ActiveSessions")
    }

    @Test func aSignalingEnvelopeCrossesTheBusUnchangedAndGarbageIsRefused() throws {
        let envelope = SignalingEnvelope(from: "abc123", message: .frame(connection: "c1", text: #"{"op":"ping"}"#))
        let decoded = try JSONDecoder().decode(SignalingEnvelope.self, from: JSONEncoder().encode(envelope))
        #expect(decoded == envelope)
        for garbage in ["", "{}", #"{"from":"a"}"#, #"{"from":"a","message":{"explode":{}}}"#,
                        #"{"from":1,"message":{"close":{"connection":"c"}}}"#, "\u{0}", "[]"] {
            #expect((try? JSONDecoder().decode(SignalingEnvelope.self, from: Data(garbage.utf8))) == nil, "\(garbage)")
        }
    }

    @Test(arguments: ["", "{}", "null", "[1,2]", #"{"className":"ActiveUsers"}"#, "#12", "\u{0}", "{\"className\":1}"])
    func anUnreadablePayloadIsIgnored(payload: String) {
        #expect(ChangeMessage(payload: payload) == nil)
    }
}
