import Foundation
import ParseClient
import ParseWire
import ServerTestSupport
import Testing

/// Text messages through the real `/signal` endpoint (issue #22 item 1, docs/backend.md "Text messages"): a
/// party's text and its acknowledgement are relayed; an oversize one, a control character, a viewer's text and
/// a flood are answered with an error frame, never relayed, and the socket and the call go on.
@Suite(.timeLimit(.minutes(1))) struct SignalingTextServerTests {
    struct Room {
        let device: WebSocketProbe
        let caller: WebSocketProbe
        let devicePeer: String
        let callerPeer: String
        let viewerToken: String
        let url: String
    }

    static func room(_ server: RunningServer) async throws -> Room {
        let (deviceClient, device) = try await server.anonymousClient()
        let (callerClient, caller) = try await server.anonymousClient()
        let row = NewCallRow(callerID: caller.objectId, callerTitle: "Visitor", receiverID: device.objectId)
        let created = try await callerClient.send(CallCreateResponse.self) { $0.createCall(row, requestId: $1) }
        let url = "ws://127.0.0.1:\(server.port)/signal"
        let deviceSocket = WebSocketProbe(url: url)
        deviceSocket.send(["op": "join", "token": .string(created.publisherToken ?? ""), "name": "Gate 3"])
        let devicePeer = try #require(try await deviceSocket.next()?["peerId"]?.stringValue)
        let callerSocket = WebSocketProbe(url: url)
        callerSocket.send(["op": "join", "token": .string(created.subscriberToken ?? ""), "name": "Visitor"])
        let callerPeer = try #require(try await callerSocket.next()?["peerId"]?.stringValue)
        #expect(try await deviceSocket.next()?["op"] == "peer-joined")
        let sessionID = try #require(created.sessionID)
        let viewer = try await deviceClient.send(FunctionResponse<ViewerTokenResult>.self) {
            $0.viewerToken(sessionID: sessionID, requestId: $1)
        }
        return Room(device: deviceSocket, caller: callerSocket, devicePeer: devicePeer, callerPeer: callerPeer,
                    viewerToken: viewer.result.token, url: url)
    }

    static func text(_ body: String, id: String = "m1") -> JSONValue {
        ["type": "text", "id": .string(id), "text": .string(body)]
    }

    @Test func aTextAndItsAcknowledgementAreRelayedBadOnesAreRefusedAndTheSocketStays() async throws {
        try await RunningServer.with { server in
            let room = try await Self.room(server)
            room.caller.send(["op": "signal", "to": .string(room.devicePeer), "data": Self.text("Parcel?\nAt the door")])
            #expect(try await room.device.next()
                == ["op": "signal", "from": .string(room.callerPeer), "data": Self.text("Parcel?\nAt the door")])
            room.device.send(["op": "signal", "to": .string(room.callerPeer), "data": ["type": "text-ack", "id": "m1"]])
            #expect(try await room.caller.next()?["data"] == ["type": "text-ack", "id": "m1"])

            for (data, reason) in [(Self.text(String(repeating: "x", count: 501)), "longer than 500 characters"),
                                   (Self.text("esc\u{1B}[31m"), "control character other than newline")] {
                room.caller.send(["op": "signal", "to": .string(room.devicePeer), "data": data])
                let refusal = try #require(try await room.caller.next())
                #expect(refusal["op"] == "error" && refusal["code"] == "bad-signal")
                #expect(refusal["message"]?.stringValue?.contains(reason) == true, "\(refusal)")
            }
            #expect(await room.device.receivesNothing(within: 0.3))
            // The socket stays and the call goes on.
            room.caller.send(["op": "ping"])
            #expect(try await room.caller.next() == ["op": "pong"])
            room.caller.send(["op": "signal", "to": .string(room.devicePeer), "data": ["type": "ringing"]])
            #expect(try await room.device.next()?["data"] == ["type": "ringing"])
        }
    }

    @Test func aViewerReceivesButCannotSend() async throws {
        try await RunningServer.with { server in
            let room = try await Self.room(server)
            let viewer = WebSocketProbe(url: room.url)
            viewer.send(["op": "join", "token": .string(room.viewerToken)])
            let viewerPeer = try #require(try await viewer.next()?["peerId"]?.stringValue)
            _ = try await room.device.next()  // peer-joined
            _ = try await room.caller.next()
            room.device.send(["op": "signal", "to": .string(viewerPeer), "data": Self.text("for the viewer")])
            #expect(try await viewer.next()?["data"] == Self.text("for the viewer"))
            viewer.send(["op": "signal", "to": .string(room.devicePeer), "data": Self.text("from a viewer")])
            let refusal = try #require(try await viewer.next())
            #expect(refusal["code"] == "forbidden")
            #expect(refusal["message"] == "a view-only peer may send only answer, candidate and bye, not \"text\"")
            #expect(await room.device.receivesNothing(within: 0.3))
            viewer.send(["op": "ping"])
            #expect(try await viewer.next() == ["op": "pong"])
        }
    }

    @Test func aFloodOf100TextsIsRateLimitedAndTheCallGoesOn() async throws {
        try await RunningServer.with { server in
            let room = try await Self.room(server)
            for index in 0..<100 {
                room.caller.send(["op": "signal", "to": .string(room.devicePeer), "data": Self.text("flood \(index)", id: "f\(index)")])
            }
            room.caller.send(["op": "ping"])
            // Every refusal comes back before the pong: the socket stays open through the flood.
            var limited = 0
            while let frame = try await room.caller.next(), frame != ["op": "pong"] {
                if frame["code"] == "rate-limited" { limited += 1 }
            }
            var relayed = 0
            while let frame = try? await room.device.next(within: 0.5), frame["data"]?["type"] == "text" { relayed += 1 }
            // The burst of 10, and what refilled (2 a second) while the 100 arrived.
            // (10-12 on an idle machine; a loaded one refills a little more while the frames arrive.)
            #expect((10...25).contains(relayed) && limited == 100 - relayed, "\(relayed) relayed, \(limited) rate-limited")
            room.caller.send(["op": "signal", "to": .string(room.devicePeer), "data": ["type": "candidate", "candidate": .null]])
            #expect(try await room.device.next()?["data"]?["type"] == "candidate")
            room.caller.send(["op": "ping"])
            #expect(try await room.caller.next() == ["op": "pong"])
        }
    }
}
