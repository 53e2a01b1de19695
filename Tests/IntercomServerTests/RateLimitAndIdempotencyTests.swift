import Foundation
@testable import IntercomServer
import Testing

/// parse-wire.md §7: 429 `{"code":100,"error":"Too many requests."}` and 159 for a repeated request id.
@Suite struct RateLimitAndIdempotencyTests {
    @Test func aBurstBeyondTheBucketIs429Code100() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock) {
            $0.rateLimit = RateLimitConfiguration(requestsPerSecond: 1, burst: 3)
        }
        try await server.run { client in
            for _ in 0..<3 { #expect(try await client.query("ActiveUsers").status == 200) }
            let limited = try await client.query("ActiveUsers")
            #expect(limited.status == 429)
            #expect(limited.json == ["code": 100, "error": "Too many requests."])
            clock.advance(seconds: 1)
            #expect(try await client.query("ActiveUsers").status == 200)
            #expect(try await client.query("ActiveUsers").status == 429)
        }
    }

    @Test func loopbackAndMasterAreExemptUnlessConfigured() {
        let clock = TestClock()
        let lenient = RateLimiter(configuration: RateLimitConfiguration(requestsPerSecond: 1, burst: 1),
                                  clock: clock.serverClock)
        for _ in 0..<10 {
            #expect(lenient.admit(address: "127.0.0.1", isMaster: false))
            #expect(lenient.admit(address: "::ffff:127.0.0.1", isMaster: false))
            #expect(lenient.admit(address: "203.0.113.9", isMaster: true))
        }
        #expect(lenient.admit(address: "203.0.113.9", isMaster: false))
        #expect(!lenient.admit(address: "203.0.113.9", isMaster: false))
        #expect(lenient.admit(address: "203.0.113.10", isMaster: false))

        let strict = RateLimiter(configuration: RateLimitConfiguration(requestsPerSecond: 1, burst: 1, includeLoopback: true),
                                 clock: clock.serverClock)
        #expect(strict.admit(address: "127.0.0.1", isMaster: false))
        #expect(!strict.admit(address: "127.0.0.1", isMaster: false))
    }

    @Test func repeatedRequestIdIs159() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            let headers = ["X-Parse-Request-Id": UUID().uuidString.lowercased()]
            let first = try await client.send(.post, "/parse/classes/ActiveUsers", body: ObjectTests.device(user),
                                              token: user.sessionToken, headers: headers)
            #expect(first.status == 201)
            let retry = try await client.send(.post, "/parse/classes/ActiveUsers", body: ObjectTests.device(user),
                                              token: user.sessionToken, headers: headers)
            #expect(retry.status == 400)
            #expect(retry.json == ["code": 159, "error": "Duplicate request"])
            // Reads and other ids are not affected.
            #expect(try await client.query("ActiveUsers", headers: headers).status == 200)
            let path = "/parse/classes/ActiveUsers/\(first["objectId"]?.stringValue ?? "")"
            let update = try await client.send(.put, path, body: ["userTitle": "x"], token: user.sessionToken,
                                               headers: ["X-Parse-Request-Id": "other"])
            #expect(update.status == 200)
        }
    }

    @Test func peerAddressRules() {
        #expect(PeerAddress.isAllowed("127.0.0.1", in: ["127.0.0.1", "::1"]))
        #expect(PeerAddress.isAllowed("127.0.0.2", in: ["127.0.0.1"]))
        #expect(PeerAddress.isAllowed("::1", in: ["127.0.0.1", "::1"]))
        #expect(PeerAddress.isAllowed("::ffff:127.0.0.1", in: ["127.0.0.1"]))
        #expect(!PeerAddress.isAllowed("192.168.1.5", in: ["127.0.0.1", "::1"]))
        #expect(!PeerAddress.isAllowed(nil, in: ["127.0.0.1", "::1"]))
        #expect(PeerAddress.isAllowed("10.0.0.7", in: ["10.0.0.7"]))
    }
}
