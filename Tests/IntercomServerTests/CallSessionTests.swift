import Foundation
import IntercomServer
import Testing

/// The ActiveSessions beforeSave (SYSTEM.md §2, §4): server-owned fields, tokens, ICE servers, expiry,
/// and the `viewerToken` function.
@Suite struct CallSessionTests {
    static let serverOwned: Set<String> = ["sessionID", "publisherToken", "subscriberToken", "signalURL", "iceServers",
                                           "expiresAt"]

    static func call(from caller: TestUser, to receiver: String, extra: [String: JSONValue] = [:]) -> JSONValue {
        var fields: [String: JSONValue] = ["callerID": .string(caller.objectId), "callerTitle": "Front door",
                                           "receiverID": .string(receiver), "isVideo": true, "isAudio": true]
        fields.merge(extra) { _, new in new }
        return .object(fields)
    }

    @Test func createFillsAndEchoesTheServerOwnedFields() async throws {
        let server = try await TestServer {
            $0.stunURLs = ["stun:stun.example.org:3478"]
            $0.turnURLs = ["turn:turn.example.org:3478?transport=udp"]
            $0.turnSecret = "turn-secret"
        }
        try await server.run { client in
            let caller = try await client.anonymousUser()
            let receiver = try await client.anonymousUser()
            let reply = try await client.create("ActiveSessions", Self.call(from: caller, to: receiver.objectId), as: caller)
            #expect(reply.status == 201)
            let keys = Set(reply.json.objectValue?.keys ?? [:].keys)
            #expect(keys == Self.serverOwned.union(["objectId", "createdAt"]))

            let nowMillis = Int64(server.clock.now.timeIntervalSince1970 * 1000)
            #expect(reply["expiresAt"] == ParseTimestamp.typedDate(milliseconds: nowMillis + 60_000))
            #expect(reply["signalURL"]?.stringValue?.hasPrefix("ws://") == true)
            #expect(reply["signalURL"]?.stringValue?.hasSuffix("/signal") == true)

            let expiry = Int64(server.clock.now.timeIntervalSince1970) + 3600
            let (username, credential) = TURNCredentials.make(secret: "turn-secret", userID: caller.objectId,
                                                              expiresAtSeconds: expiry)
            #expect(reply["iceServers"] == [
                ["urls": ["stun:stun.example.org:3478"]],
                ["urls": ["turn:turn.example.org:3478?transport=udp"], "username": .string(username),
                 "credential": .string(credential)],
            ])
            #expect(username == "\(expiry):\(caller.objectId)")

            // The stored row carries the same values; the receiver can read it.
            let id = reply["objectId"]?.stringValue ?? ""
            let stored = try await client.send(.get, "/parse/classes/ActiveSessions/\(id)", token: receiver.sessionToken)
            #expect(stored.status == 200)
            for field in Self.serverOwned { #expect(stored[field] == reply[field], "\(field)") }
            #expect(stored["callerTitle"] == "Front door")
        }
    }

    @Test func tokensAreBoundToTheSessionAndToEachParty() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await client.anonymousUser()
            let reply = try await client.create("ActiveSessions", Self.call(from: caller, to: "device-7"), as: caller)
            let sessionID = try #require(reply["sessionID"]?.stringValue)
            #expect(sessionID.count >= 20)
            let verifier = server.backend.tokenVerifier
            let now = server.clock.now
            let publisher = try await verifier.verify(try #require(reply["publisherToken"]?.stringValue),
                                                      sessionID: sessionID, now: now)
            #expect(publisher.sub == "device-7")
            #expect(publisher.sessionRole == .publisher)
            #expect(publisher.sid == sessionID)
            #expect(publisher.exp - publisher.iat == 3600)
            let subscriber = try await verifier.verify(try #require(reply["subscriberToken"]?.stringValue),
                                                       sessionID: sessionID, now: now)
            // In a 1:1 call both sides send and receive, so the caller's token is a publisher too.
            #expect(subscriber.sub == caller.objectId)
            #expect(subscriber.sessionRole == .publisher)
            #expect(subscriber.jti != publisher.jti)

            let record = try await server.backend.database.callSession(sessionID, now: now)
            #expect(record?.callerID == caller.objectId)
            #expect(record?.receiverID == "device-7")
        }
    }

    @Test func clientsCannotSetServerOwnedFields() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await client.anonymousUser()
            let forged: [String: JSONValue] = [
                "sessionID": "mine", "publisherToken": "forged", "subscriberToken": "forged",
                "signalURL": "ws://evil.example/signal", "iceServers": [["urls": ["turn:evil"]]],
                "expiresAt": ParseTimestamp.typedDate(milliseconds: 4_000_000_000_000),
            ]
            let reply = try await client.create("ActiveSessions", Self.call(from: caller, to: "rx", extra: forged), as: caller)
            #expect(reply.status == 201)
            for (field, value) in forged { #expect(reply[field] != value, "\(field)") }
            let path = "/parse/classes/ActiveSessions/\(reply["objectId"]?.stringValue ?? "")"
            let update = try await client.send(.put, path, body: .object(forged.merging(["isVideo": false]) { a, _ in a }),
                                               token: caller.sessionToken)
            #expect(update.status == 200)
            let stored = try await client.send(.get, path, token: caller.sessionToken)
            for field in Self.serverOwned { #expect(stored[field] == reply[field], "\(field)") }
            #expect(stored["isVideo"] == false)
        }
    }

    @Test func createNeedsAReceiverAndTheCallerMustBeTheSessionUser() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await client.anonymousUser()
            let noReceiver = try await client.create("ActiveSessions", ["callerID": .string(caller.objectId)], as: caller)
            #expect(noReceiver.json == ["code": 142, "error": "receiverID is required"])
            let impostor = try await client.create("ActiveSessions", ["callerID": "someone-else", "receiverID": "rx"],
                                                   as: caller)
            #expect(impostor.json == ["code": 119, "error": "Permission denied for action create on class ActiveSessions."])
            let anonymous = try await client.create("ActiveSessions", ["callerID": "x", "receiverID": "rx"], as: nil)
            #expect(anonymous.errorCode == 119)
        }
    }

    @Test func callRowsExpireAfterTheRingTimeAndAreSwept() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock) { $0.ringTimeToLiveSeconds = 30 }
        try await server.run { client in
            let caller = try await client.anonymousUser()
            let reply = try await client.create("ActiveSessions", Self.call(from: caller, to: "rx"), as: caller)
            let path = "/parse/classes/ActiveSessions/\(reply["objectId"]?.stringValue ?? "")"
            clock.advance(seconds: 29)
            #expect(try await client.send(.get, path, token: caller.sessionToken).status == 200)
            clock.advance(seconds: 1)
            #expect(try await client.send(.get, path, token: caller.sessionToken).status == 404)
            #expect(try await client.query("ActiveSessions", token: caller.sessionToken).results.isEmpty)
            #expect(try await client.send(.delete, path, token: caller.sessionToken).status == 404)

            let report = try await server.backend.sweeper.sweepOnce()
            #expect(report.expiredCalls == 1)
            #expect(report.expiredCallSessions == 0)  // tokens live for an hour
            clock.advance(seconds: 3600)
            #expect(try await server.backend.sweeper.sweepOnce().expiredCallSessions == 1)
        }
    }

    @Test func viewerTokenIsASubscriberTokenForParticipantsOnly() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let caller = try await client.anonymousUser()
            let receiver = try await client.anonymousUser()
            let stranger = try await client.anonymousUser()
            let call = try await client.create("ActiveSessions", Self.call(from: caller, to: receiver.objectId), as: caller)
            let sessionID = try #require(call["sessionID"]?.stringValue)
            // The receiver deletes the row when it answers; the session lives on.
            let path = "/parse/classes/ActiveSessions/\(call["objectId"]?.stringValue ?? "")"
            #expect(try await client.send(.delete, path, token: receiver.sessionToken).status == 200)

            for participant in [caller, receiver] {
                let reply = try await client.send(.post, "/parse/functions/viewerToken", body: ["sessionID": .string(sessionID)],
                                                  token: participant.sessionToken)
                #expect(reply.status == 200)
                let result = try #require(reply["result"])
                #expect(result["role"] == "subscriber")
                #expect(result["signalURL"] == call["signalURL"])
                let claims = try await server.backend.tokenVerifier.verify(
                    try #require(result["token"]?.stringValue), sessionID: sessionID, roles: [.subscriber],
                    now: server.clock.now)
                #expect(claims.sub == participant.objectId)
                #expect(claims.sessionRole == .subscriber)
            }

            let denied = try await client.send(.post, "/parse/functions/viewerToken", body: ["sessionID": .string(sessionID)],
                                               token: stranger.sessionToken)
            #expect(denied.status == 400)
            #expect(denied.errorCode == 141)
            let unknown = try await client.send(.post, "/parse/functions/viewerToken", body: ["sessionID": "nope"],
                                                token: caller.sessionToken)
            #expect(unknown.json == denied.json)
            let missing = try await client.send(.post, "/parse/functions/viewerToken", body: [:], token: caller.sessionToken)
            #expect(missing.json == ["code": 141, "error": "sessionID is required"])
            let noUser = try await client.send(.post, "/parse/functions/viewerToken", body: ["sessionID": .string(sessionID)])
            #expect(noUser.errorCode == 141)
            let function = try await client.send(.post, "/parse/functions/launchMissiles", body: [:])
            #expect(function.json == ["code": 141, "error": "Invalid function: \"launchMissiles\""])
        }
    }

    @Test func signalURLComesFromConfigurationNeverFromRequestHeaders() async throws {
        let configured = try await TestServer { $0.signalURL = "wss://intercom.example.org/signal" }
        try await configured.run { client in
            let caller = try await client.anonymousUser()
            let reply = try await client.create("ActiveSessions", Self.call(from: caller, to: "rx"), as: caller)
            #expect(reply["signalURL"] == "wss://intercom.example.org/signal")
        }
        let fromPublicURL = try await TestServer { $0.publicURL = "https://intercom.example.org/" }
        try await fromPublicURL.run { client in
            let caller = try await client.anonymousUser()
            let reply = try await client.send(.post, "/parse/classes/ActiveSessions", body: Self.call(from: caller, to: "rx"),
                                              token: caller.sessionToken, headers: ["Host": "attacker.example:6666"])
            #expect(reply["signalURL"] == "wss://intercom.example.org/signal")
        }
        // Issue #14 (3): neither Host nor X-Forwarded-Proto moves it; the listen address does.
        let derived = try await TestServer { $0.host = "192.0.2.10"; $0.port = 4242 }
        try await derived.run { client in
            let caller = try await client.anonymousUser()
            let reply = try await client.send(.post, "/parse/classes/ActiveSessions", body: Self.call(from: caller, to: "rx"),
                                              token: caller.sessionToken,
                                              headers: ["Host": "attacker.example:6666", "X-Forwarded-Proto": "https"])
            #expect(reply["signalURL"] == "ws://192.0.2.10:4242/signal")
        }
    }

    @Test func turnCredentialsMatchTheTURNRESTScheme() {
        // Expected value computed independently (Python hmac/hashlib/base64).
        let (username, credential) = TURNCredentials.make(secret: "turn-secret", userID: "caller1",
                                                          expiresAtSeconds: 1_795_003_600)
        #expect(username == "1795003600:caller1")
        #expect(credential == "lytx/9GjPe2Gu1XaEYQ3P+MkRBY=")
    }
}
