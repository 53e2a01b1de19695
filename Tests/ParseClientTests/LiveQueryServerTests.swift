import Foundation
import ParseClient
import ParseWire
import ServerTestSupport
import Testing

/// The server's LiveQuery endpoint over a real WebSocket, frame by frame as parse-wire.md §8 describes.
@Suite(.timeLimit(.minutes(1))) struct LiveQueryServerTests {
    @Test func connectSubscribeAndReceiveCreateThenDelete() async throws {
        try await RunningServer.with { server in
            let (receiverClient, receiver) = try await server.anonymousClient()
            let (callerClient, caller) = try await server.anonymousClient()
            let socket = WebSocketProbe(url: server.liveQueryURL)
            socket.send(["op": "connect", "applicationId": "intercom", "sessionToken": .string(receiver.sessionToken)])
            let connected = try #require(try await socket.next())
            #expect(connected["op"] == "connected")
            let clientId = try #require(connected["clientId"]?.stringValue)
            #expect(!clientId.isEmpty)

            socket.send(["op": "subscribe", "requestId": 7,
                         "query": ["className": "ActiveSessions", "where": ["receiverID": .string(receiver.objectId)]]])
            let subscribed = try #require(try await socket.next())
            #expect(subscribed == ["op": "subscribed", "clientId": .string(clientId), "requestId": 7])

            let call = NewCallRow(callerID: caller.objectId, callerTitle: "Visitor", receiverID: receiver.objectId)
            let created = try await callerClient.send(CallCreateResponse.self) { $0.createCall(call, requestId: $1) }
            let event = try #require(try await socket.next())
            #expect(event["op"] == "create")
            #expect(event["requestId"] == 7)
            #expect(event["object"]?["className"] == "ActiveSessions")
            #expect(event["object"]?["objectId"] == .string(created.objectId))
            #expect(event["object"]?["callerTitle"] == "Visitor")
            #expect(event["object"]?["publisherToken"]?.stringValue == created.publisherToken)

            _ = try await receiverClient.send(EmptyResponse.self) { $0.deleteCall(objectId: created.objectId, requestId: $1) }
            let deleted = try #require(try await socket.next())
            #expect(deleted["op"] == "delete")
            #expect(deleted["object"]?["objectId"] == .string(created.objectId))
            socket.close()
        }
    }

    @Test func aThirdPartyNeverSeesSomeoneElsesCall() async throws {
        try await RunningServer.with { server in
            let (_, receiver) = try await server.anonymousClient()
            let (callerClient, caller) = try await server.anonymousClient()
            let (_, snoop) = try await server.anonymousClient()
            let socket = WebSocketProbe(url: server.liveQueryURL)
            socket.send(["op": "connect", "applicationId": "intercom", "sessionToken": .string(snoop.sessionToken)])
            #expect(try await socket.next()?["op"] == "connected")
            socket.send(["op": "subscribe", "requestId": 1, "query": ["className": "ActiveSessions", "where": [:]]])
            #expect(try await socket.next()?["op"] == "subscribed")
            let call = NewCallRow(callerID: caller.objectId, callerTitle: "Visitor", receiverID: receiver.objectId)
            _ = try await callerClient.send(CallCreateResponse.self) { $0.createCall(call, requestId: $1) }
            #expect(await socket.receivesNothing(within: 0.5))
        }
    }

    @Test func updatesThatLeaveAndEnterTheQueryAreNamedSo() async throws {
        try await RunningServer.with { server in
            let (deviceClient, device) = try await server.anonymousClient()
            let socket = WebSocketProbe(url: server.liveQueryURL)
            socket.send(["op": "connect", "applicationId": "intercom"])
            #expect(try await socket.next()?["op"] == "connected")
            socket.send(["op": "subscribe", "requestId": 2,
                         "query": ["className": "ActiveUsers", "where": ["userTitle": "Gate 3"], "keys": ["userTitle"]]])
            #expect(try await socket.next()?["op"] == "subscribed")
            var fields = ActiveUserFields(userID: device.objectId, userTitle: "Gate 3",
                                          userLocation: try GeoPoint(latitude: 52.5, longitude: 13.4))
            let firstFields = fields
            let created = try await deviceClient.send(CreateResponse.self) {
                $0.saveActiveUser(firstFields, existingObjectId: nil, requestId: $1)
            }
            let create = try #require(try await socket.next())
            #expect(create["op"] == "create")
            // `keys` keeps only the listed fields and the Parse-managed ones.
            #expect(create["object"]?["userTitle"] == "Gate 3")
            #expect(create["object"]?["userLocation"] == nil)

            fields.userTitle = "Gate 4"
            let renamed = fields
            _ = try await deviceClient.send(UpdateResponse.self) {
                $0.saveActiveUser(renamed, existingObjectId: created.objectId, requestId: $1)
            }
            let leave = try #require(try await socket.next())
            #expect(leave["op"] == "leave")
            #expect(leave["original"]?["userTitle"] == "Gate 3")

            fields.userTitle = "Gate 3"
            let restored = fields
            _ = try await deviceClient.send(UpdateResponse.self) {
                $0.saveActiveUser(restored, existingObjectId: created.objectId, requestId: $1)
            }
            #expect(try await socket.next()?["op"] == "enter")
        }
    }

    @Test func schemaViolationsAreAnsweredWithParseServerCodes() async throws {
        try await RunningServer.with { server in
            let socket = WebSocketProbe(url: server.liveQueryURL)
            socket.send(["op": "subscribe", "requestId": 1, "query": ["className": "ActiveUsers", "where": [:]]])
            let early = try #require(try await socket.next())
            #expect(early["op"] == "error")
            #expect(early["code"] == 2)

            socket.send(["op": "connect", "applicationId": "intercom"])
            #expect(try await socket.next()?["op"] == "connected")
            // 7.0.0 renamed `fields` to `keys`; the old name fails the schema (code 1, reconnect true).
            socket.send(["op": "subscribe", "requestId": 1,
                         "query": ["className": "ActiveUsers", "where": [:], "fields": ["userTitle"]]])
            let renamed = try #require(try await socket.next())
            #expect(renamed["code"] == 1)
            #expect(renamed["reconnect"] == true)
            socket.send(["op": "explode"])
            #expect(try await socket.next()?["code"] == 3)
            socket.send("{not json")
            #expect(try await socket.next()?["code"] == 1)
            socket.send(["op": "unsubscribe", "requestId": 99])
            #expect(try await socket.next()?["code"] == 2)
            // The socket survives all of that.
            socket.send(["op": "subscribe", "requestId": 3, "query": ["className": "ActiveUsers", "where": [:]]])
            #expect(try await socket.next()?["op"] == "subscribed")
            socket.send(["op": "unsubscribe", "requestId": 3])
            #expect(try await socket.next()?["op"] == "unsubscribed")
        }
    }

    @Test func aClientKeyIsRequiredWhenConfigured() async throws {
        try await RunningServer.with(configure: { $0.clientKeys = ["secret-key"] }) { server in
            let refused = WebSocketProbe(url: server.liveQueryURL)
            refused.send(["op": "connect", "applicationId": "intercom", "clientKey": "wrong"])
            let refusal = try await refused.next()
            #expect(refusal?["code"] == 4)
            let accepted = WebSocketProbe(url: server.liveQueryURL)
            accepted.send(["op": "connect", "applicationId": "intercom", "clientKey": "secret-key"])
            let welcome = try await accepted.next()
            #expect(welcome?["op"] == "connected")
        }
    }
}
