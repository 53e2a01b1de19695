import Foundation
import IntercomServer
import Testing

/// Issue #19 follow-up: the server records who uploaded each Parse File, so a row can reference, and a
/// row's deletion or the retention sweep can remove, only files its own writer uploaded.
@Suite struct FileOwnershipTests {
    static let master = ["X-Parse-Master-Key": TestServer.masterKey]

    static func pointer(_ upload: ParseReply) -> JSONValue {
        ["__type": "File", "name": upload["name"] ?? .null, "url": upload["url"] ?? .null]
    }

    static func url(_ upload: ParseReply) throws -> String { try #require(upload["url"]?.stringValue) }

    @Test func aRowMayReferenceOnlyItsWritersOwnFiles() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let device = try await client.anonymousUser()
            let owner = try await client.anonymousUser()
            let stranger = try await client.anonymousUser()
            let devicesFile = try await VisitorLogTests.upload(client, token: device.sessionToken)
            let strangersFile = try await VisitorLogTests.upload(client, token: stranger.sessionToken)

            // The stranger's own row may not point at the device's picture (119), nor at a made-up name.
            let forged = try await client.create(
                "CallLog", VisitorLogTests.callLog(device: stranger, owner: owner, file: Self.pointer(devicesFile)),
                as: stranger)
            #expect(forged.status == 400 && forged.errorCode == 119)
            let invented: JSONValue = ["__type": "File", "name": "0123456789abcdef0123456789abcdef_ring.jpg"]
            let madeUp = try await client.create(
                "CallLog", VisitorLogTests.callLog(device: stranger, owner: owner, file: invented), as: stranger)
            #expect(madeUp.status == 400 && madeUp.errorCode == 119)

            // Its own picture is fine; swapping in the device's on update is refused like a create.
            let own = try await client.create(
                "CallLog", VisitorLogTests.callLog(device: stranger, owner: owner, file: Self.pointer(strangersFile)),
                as: stranger)
            #expect(own.status == 201)
            let ownId = try #require(own["objectId"]?.stringValue)
            let swapped = try await client.send(.put, "/parse/classes/CallLog/\(ownId)",
                                                body: ["snapshot": Self.pointer(devicesFile)], token: stranger.sessionToken)
            #expect(swapped.status == 400 && swapped.errorCode == 119)
            // An update that leaves the file as it is passes.
            let note = try await client.send(.put, "/parse/classes/CallLog/\(ownId)", body: ["callerTitle": "Courier"],
                                             token: stranger.sessionToken)
            #expect(note.status == 200)

            // The device's own row works as before, and the picture is still there.
            let real = try await client.create(
                "CallLog", VisitorLogTests.callLog(device: device, owner: owner, file: Self.pointer(devicesFile)), as: device)
            #expect(real.status == 201)
            #expect(try await VisitorLogTests.download(client, url: try Self.url(devicesFile)).status == 200)
        }
    }

    @Test func deletingARowThatNamesAnotherUsersFileLeavesTheFile() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let device = try await client.anonymousUser()
            let stranger = try await client.anonymousUser()
            let devicesFile = try await VisitorLogTests.upload(client, token: device.sessionToken)
            // The master key may write any reference (e.g. a restore); the row is the stranger's.
            let row = try await client.send(
                .post, "/parse/classes/CallLog",
                body: VisitorLogTests.callLog(device: stranger, owner: device, file: Self.pointer(devicesFile)),
                headers: Self.master)
            #expect(row.status == 201)
            let id = try #require(row["objectId"]?.stringValue)
            #expect(try await client.send(.delete, "/parse/classes/CallLog/\(id)", token: stranger.sessionToken).status == 200)
            #expect(try await VisitorLogTests.download(client, url: try Self.url(devicesFile)).status == 200)
        }
    }

    @Test func theRetentionSweepKeepsAFileOnlyAForgedRowNamed() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock) { $0.callLogRetentionDays = 7 }
        try await server.run(.live) { client in
            let device = try await client.anonymousUser()
            let stranger = try await client.anonymousUser()
            let forged = try await client.send(
                .post, "/parse/classes/CallLog",
                body: VisitorLogTests.callLog(device: stranger, owner: device, file: .null), headers: Self.master)
            #expect(forged.status == 201)
            clock.advance(seconds: 6 * 86_400)
            // Uploaded 6 days after the forged row: the row expires first, the file must not go with it.
            let devicesFile = try await VisitorLogTests.upload(client, token: device.sessionToken)
            let id = try #require(forged["objectId"]?.stringValue)
            let pointed = try await client.send(.put, "/parse/classes/CallLog/\(id)",
                                                body: ["snapshot": Self.pointer(devicesFile)], headers: Self.master)
            #expect(pointed.status == 200)
            clock.advance(seconds: 2 * 86_400)

            let report = try await server.backend.sweeper.sweepOnce()
            #expect(report.expiredCallLogs == 1)
            #expect(report.expiredFiles == 0)
            #expect(try await VisitorLogTests.download(client, url: try Self.url(devicesFile)).status == 200)
            // Past its own retention the file goes as an orphan.
            clock.advance(seconds: 6 * 86_400)
            #expect(try await server.backend.sweeper.sweepOnce().expiredFiles == 1)
            #expect(try await VisitorLogTests.download(client, url: try Self.url(devicesFile)).status == 404)
        }
    }

    @Test func onlyTheUploaderOrTheMasterKeyDeletesAFile() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let device = try await client.anonymousUser()
            let stranger = try await client.anonymousUser()
            let first = try await VisitorLogTests.upload(client, token: device.sessionToken)
            let second = try await VisitorLogTests.upload(client, token: device.sessionToken)
            let firstName = try #require(first["name"]?.stringValue)
            let secondName = try #require(second["name"]?.stringValue)

            for token in [stranger.sessionToken, nil] {
                let refused = try await client.send(.delete, "/parse/files/\(firstName)", token: token)
                #expect(refused.status == 403 && refused["error"] == "unauthorized: master key is required")
            }
            // An unknown name answers as a stranger's file does.
            #expect(try await client.send(.delete, "/parse/files/0123_none.jpg", token: stranger.sessionToken).status == 403)
            #expect(try await VisitorLogTests.download(client, url: try Self.url(first)).status == 200)

            #expect(try await client.send(.delete, "/parse/files/\(firstName)", token: device.sessionToken).status == 200)
            #expect(try await VisitorLogTests.download(client, url: try Self.url(first)).status == 404)
            #expect(try await client.send(.delete, "/parse/files/\(secondName)", headers: Self.master).status == 200)
            #expect(try await VisitorLogTests.download(client, url: try Self.url(second)).status == 404)
            // Once deleted, the uploader cannot reference it any more.
            let late = try await client.create(
                "CallLog", VisitorLogTests.callLog(device: device, owner: stranger, file: Self.pointer(first)), as: device)
            #expect(late.errorCode == 119)
        }
    }
}
