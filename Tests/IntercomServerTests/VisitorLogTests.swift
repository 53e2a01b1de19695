import Foundation
import Hummingbird
import HummingbirdTesting
import IntercomServer
import IntercomTestSupport
import Testing

/// Issue #19: Parse Files for snapshots and the `CallLog` visitor log, over a real socket.
@Suite struct VisitorLogTests {
    /// A minimal JPEG prefix (SOI + APP0 marker start): the server checks the magic, not the picture.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 2000) + [0xFF, 0xD9]

    static func upload(_ client: ParseTestClient, name: String = "ring.jpg", bytes: [UInt8] = jpeg,
                       contentType: String = "image/jpeg", token: String?) async throws -> ParseReply {
        var headers = HTTPFields()
        headers[.init("X-Parse-Application-Id")!] = ParseTestClient.applicationId
        if let token { headers[.init("X-Parse-Session-Token")!] = token }
        headers[.contentType] = contentType
        let response = try await client.client.execute(uri: "/parse/files/\(name)", method: .post, headers: headers,
                                                        body: ByteBuffer(bytes: bytes))
        let body = Array(response.body.readableBytesView)
        let json = body.isEmpty ? JSONValue.null : try JSONDecoder().decode(JSONValue.self, from: Data(body))
        return ParseReply(status: Int(response.status.code), json: json, headers: response.headers)
    }

    static func download(_ client: ParseTestClient, url: String) async throws -> (status: Int, bytes: [UInt8], type: String?) {
        let path = String(url[try #require(url.range(of: "/parse/files/")).lowerBound...])
        let response = try await client.client.execute(uri: path, method: .get, headers: [:], body: nil)
        return (Int(response.status.code), Array(response.body.readableBytesView), response.headers[.contentType])
    }

    static func callLog(device: TestUser, owner: TestUser, file: JSONValue) -> JSONValue {
        [
            "userID": .string(device.objectId), "callerID": "visitor-1", "callerTitle": "Visitor", "route": "webrtc",
            "direction": "incoming", "outcome": "missed",
            "startedAt": ["__type": "Date", "iso": "2026-11-26T12:00:00.000Z"],
            "endedAt": ["__type": "Date", "iso": "2026-11-26T12:00:30.000Z"],
            "snapshot": file,
            "ACL": .object([owner.objectId: ["read": true], device.objectId: ["read": true, "write": true]]),
        ]
    }

    @Test func uploadGetAndTheLimitsOfAnUpload() async throws {
        let server = try await TestServer { $0.maxFileBytes = 4096 }
        try await server.run(.live) { client in
            let device = try await client.anonymousUser()
            let reply = try await Self.upload(client, token: device.sessionToken)
            #expect(reply.status == 201)
            let name = try #require(reply["name"]?.stringValue)
            let url = try #require(reply["url"]?.stringValue)
            #expect(name.hasSuffix("_ring.jpg") && name.count == 32 + 1 + 8)
            #expect(url.hasSuffix("/parse/files/intercom/\(name)"))
            #expect(reply.header("Location") == url)
            let fetched = try await Self.download(client, url: url)
            #expect(fetched.status == 200 && fetched.bytes == Self.jpeg && fetched.type == "image/jpeg")
            // Stored beside the SQLite database; on PostgreSQL in the database, on no instance's disk.
            let onDisk = FileManager.default.fileExists(atPath: server.directory.path("server.sqlite.files/\(name)"))
            #expect(onDisk == (TestPostgres.baseURL == nil))

            #expect(try await Self.upload(client, bytes: Self.jpeg + [UInt8](repeating: 0, count: 4096),
                                          token: device.sessionToken).status == 413)
            let png = try await Self.upload(client, contentType: "image/png", token: device.sessionToken)
            #expect(png.status == 400 && png.errorCode == 130)
            let notJPEG = try await Self.upload(client, bytes: Array("<html>".utf8), token: device.sessionToken)
            #expect(notJPEG.status == 400 && notJPEG.errorCode == 130)
            #expect(try await Self.upload(client, name: "..%2Fescape", token: device.sessionToken).errorCode == 122)
            #expect(try await Self.upload(client, token: nil).errorCode == 130)  // public upload
            #expect(try await Self.download(client, url: "/parse/files/intercom/0123_unknown.jpg").status == 404)
            #expect(try await Self.download(client, url: "/parse/files/other-app/\(name)").status == 404)
        }
    }

    @Test func onlyTheOwnersReadAVisitAndDeletingItDeletesItsSnapshot() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let device = try await client.anonymousUser()
            let owner = try await client.anonymousUser()
            let stranger = try await client.anonymousUser()
            let file = try await Self.upload(client, token: device.sessionToken)
            let pointer: JSONValue = ["__type": "File", "name": file["name"]!, "url": file["url"]!]
            let created = try await client.create("CallLog", Self.callLog(device: device, owner: owner, file: pointer), as: device)
            #expect(created.status == 201)
            let id = try #require(created["objectId"]?.stringValue)

            let mine = try await client.query("CallLog", ["order": "-createdAt"], token: owner.sessionToken)
            #expect(mine.objectIds == [id])
            #expect(mine.results.first?["snapshot"]?["name"] == file["name"])
            #expect(try await client.query("CallLog", token: stranger.sessionToken).results.isEmpty)
            #expect(try await client.query("CallLog").results.isEmpty)
            #expect(try await client.send(.get, "/parse/classes/CallLog/\(id)", token: stranger.sessionToken).status == 404)
            #expect(try await client.send(.get, "/parse/classes/CallLog/\(id)", token: owner.sessionToken).status == 200)
            // A stranger cannot write one for the device, nor delete it; the owner (read-only) neither.
            let forged = try await client.create("CallLog", Self.callLog(device: device, owner: stranger, file: pointer), as: stranger)
            #expect(forged.status == 400 && forged.errorCode == 119)
            #expect(try await client.send(.delete, "/parse/classes/CallLog/\(id)", token: owner.sessionToken).status == 404)

            #expect(try await client.send(.delete, "/parse/classes/CallLog/\(id)", token: device.sessionToken).status == 200)
            #expect(try await Self.download(client, url: try #require(file["url"]?.stringValue)).status == 404)
        }
    }

    @Test func theRetentionSweepRemovesOldVisitsWithTheirSnapshots() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock) { $0.callLogRetentionDays = 7 }
        try await server.run(.live) { client in
            let device = try await client.anonymousUser()
            let owner = try await client.anonymousUser()
            let oldFile = try await Self.upload(client, token: device.sessionToken)
            let pointer: JSONValue = ["__type": "File", "name": oldFile["name"]!, "url": oldFile["url"]!]
            _ = try await client.create("CallLog", Self.callLog(device: device, owner: owner, file: pointer), as: device)
            clock.advance(seconds: 6 * 86_400)
            #expect(try await server.backend.sweeper.sweepOnce().expiredCallLogs == 0)
            let recent = try await client.create("CallLog", Self.callLog(device: device, owner: owner, file: .null), as: device)
            clock.advance(seconds: 2 * 86_400)  // the first visit is 8 days old, the second 2

            let report = try await server.backend.sweeper.sweepOnce()
            #expect(report.expiredCallLogs == 1)
            #expect(report.expiredFiles == 1)
            let left = try await client.query("CallLog", token: owner.sessionToken)
            #expect(left.objectIds == [recent["objectId"]?.stringValue].compactMap { $0 })
            #expect(try await Self.download(client, url: try #require(oldFile["url"]?.stringValue)).status == 404)
        }
    }

    @Test func theFilesKeysAreReadFromTheConfigFileAndCheckedForRange() throws {
        let directory = try TemporaryDirectory()
        try directory.write(Array("""
            files_directory = "/srv/files"
            max_file_bytes = 500000
            call_log_retention_days = 0
            """.utf8), to: "server.toml")
        var configuration = ServerConfiguration()
        #expect(configuration.resolvedFilesDirectory == "./intercom-server.sqlite.files")
        _ = try configuration.apply(file: directory.path("server.toml"))
        #expect(configuration.resolvedFilesDirectory == "/srv/files")
        #expect(configuration.maxFileBytes == 500_000 && configuration.callLogRetentionDays == 0)
        try directory.write(Array("max_file_bytes = 10\n".utf8), to: "bad.toml")
        #expect(throws: ServerConfigurationError.self) { try configuration.apply(file: directory.path("bad.toml")) }
    }
}
