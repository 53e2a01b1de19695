import Foundation
import HummingbirdTesting
import IntercomServer
import Testing

/// Over a real socket (Hummingbird `.live`): the peer is 127.0.0.1, so the master key works; Location carries
/// the Host the client used, signalURL the listen address.
@Suite struct LiveServerTests {
    @Test func masterKeyFromLoopbackBypassesAccessRules() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let master = ["X-Parse-Master-Key": TestServer.masterKey]
            let created = try await client.send(
                .post, "/parse/classes/ActiveUsers",
                body: ["userID": "provisioned-device", "userTitle": "Lobby", "userLocation": .geoPoint(1, 2)],
                headers: master)
            #expect(created.status == 201)
            // Hummingbird's live test client sends `Host: localhost`; URLs are built from the Host the client used.
            let location = try #require(created.header("Location"))
            #expect(location == "http://localhost/parse/classes/ActiveUsers/\(created["objectId"]?.stringValue ?? "?")")

            let caller = try await client.anonymousUser()
            let call = try await client.create("ActiveSessions", CallSessionTests.call(from: caller, to: "rx"), as: caller)
            // signalURL comes from the listen address, never from the Host header (issue #14, 3): the real port.
            let signalURL = try #require(call["signalURL"]?.stringValue)
            #expect(signalURL.hasPrefix("ws://127.0.0.1:") && signalURL.hasSuffix("/signal") && !signalURL.contains(":0/"),
                    "\(signalURL)")
            let all = try await client.query("ActiveSessions", headers: master)
            #expect(all.objectIds == [call["objectId"]?.stringValue ?? "?"])
            let delete = try await client.send(
                .delete, "/parse/classes/ActiveUsers/\(created["objectId"]?.stringValue ?? "")", headers: master)
            #expect(delete.json == [:])
        }
    }

    @Test func masterKeyIsRefusedWhenLoopbackIsNotAllowed() async throws {
        let server = try await TestServer { $0.masterKeyIPs = ["10.9.8.7"] }
        try await server.run(.live) { client in
            let reply = try await client.query("ActiveSessions", headers: ["X-Parse-Master-Key": TestServer.masterKey])
            #expect(reply.status == 403)
            #expect(reply.json == ["error": "unauthorized"])
        }
    }

    @Test func loopbackIsNotRateLimitedByDefaultButCanBe() async throws {
        let exempt = try await TestServer { $0.rateLimit = RateLimitConfiguration(requestsPerSecond: 0.001, burst: 1) }
        try await exempt.run(.live) { client in
            for _ in 0..<5 {
                let reply = try await client.query("ActiveUsers")
                #expect(reply.status == 200)
            }
        }
        let counted = try await TestServer {
            $0.rateLimit = RateLimitConfiguration(requestsPerSecond: 0.001, burst: 1, includeLoopback: true)
        }
        try await counted.run(.live) { client in
            let first = try await client.query("ActiveUsers")
            let second = try await client.query("ActiveUsers")
            #expect(first.status == 200)
            #expect(second.status == 429)
        }
    }
}
