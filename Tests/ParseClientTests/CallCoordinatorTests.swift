import CallCore
import Foundation
import IntercomAgent
import ParseClient
import ParseWire
import Synchronization
import Testing

/// The agent's call wiring against a real server and a real signaling room, with a scripted media session
/// standing in for WebRTC: row → join → answer policy (`ringing` while it waits) → offer → media up → `bye`.
@Suite(.timeLimit(.minutes(1))) struct CallCoordinatorTests {
    /// Sends a fixed offer when told to start, and reports media up once the peer's answer arrives.
    final class ScriptedMedia: CallMediaSession, CallMediaFactory {
        let log = Mutex<[String]>([])
        let stateSink = Mutex<(@Sendable (Bool) async -> Void)?>(nil)

        func makeSession(sessionID: String, peer: String) -> any CallMediaSession {
            log.withLock { $0.append("session \(peer)") }
            return self
        }

        func start(plan: MediaPlan, iceServers: [IceServer], signal: @escaping @Sendable (SignalPayload) async -> Void,
                   state: @escaping @Sendable (Bool) async -> Void) async throws {
            log.withLock { $0.append("start \(plan.negotiation == .sendOffer ? "offer" : "answer")") }
            stateSink.withLock { $0 = state }
            await signal(.offer(sdp: "v=0 scripted"))
        }

        func remote(_ payload: SignalPayload) async {
            log.withLock { $0.append("remote \(payload.json["type"]?.stringValue ?? "?")") }
            if case .answer = payload, let state = stateSink.withLock({ $0 }) { await state(true) }
        }

        func stop() async { log.withLock { $0.append("stop") } }
    }

    static func next(_ events: inout AsyncStream<SignalingConnection.Event>.AsyncIterator) async throws
        -> SignalingConnection.Event
    {
        guard let event = await events.next() else { throw TestFailure("the caller's event stream ended") }
        return event
    }

    /// A device (coordinator with `media`) and a visitor who places a call to it and waits in the room;
    /// the device has been handed the row, as the intake would.
    struct PlacedCall {
        let coordinator: CallCoordinator
        let visitor: SignalingConnection
        let visitorPeer: String
        var events: AsyncStream<SignalingConnection.Event>.AsyncIterator
    }

    static func placeCall(_ server: RunningServer, answerMode: AnswerMode, media: ScriptedMedia) async throws
        -> PlacedCall
    {
        let device = try AgentBackendTests.Device()
        let session = try device.session(server)
        let deviceID = try await session.ensureLoggedIn()
        let coordinator = CallCoordinator(
            policy: CallPolicy(answerMode: answerMode), session: session, mediaFactory: media, status: device.status,
            deviceTitle: "Gate 3", logger: RunningServer.logger)
        await coordinator.begin()
        let (callerClient, caller) = try await server.anonymousClient()
        let row = NewCallRow(callerID: caller.objectId, callerTitle: "Visitor", receiverID: deviceID)
        let created = try await callerClient.send(CallCreateResponse.self) { $0.createCall(row, requestId: $1) }
        let visitor = SignalingConnection(url: created.signalURL ?? "", token: created.subscriberToken ?? "",
                                          name: "Visitor", logger: RunningServer.logger)
        var events = visitor.events.makeAsyncIterator()
        await visitor.start()
        guard case .joined(let visitorPeer, _, _, _) = try await next(&events) else {
            throw TestFailure("the caller did not join")
        }
        let rows = try await callerClient.send(QueryResults<ActiveSessionRow>.self) {
            $0.find("ActiveSessions", where: [:], requestId: $1)
        }
        await coordinator.incoming(try #require(rows.results.first))
        return PlacedCall(coordinator: coordinator, visitor: visitor, visitorPeer: visitorPeer, events: events)
    }

    @Test func anAutoAnsweredCallRingsOffersGoesLiveAndEndsOnBye() async throws {
        try await RunningServer.with { server in
            let media = ScriptedMedia()
            var call = try await Self.placeCall(server, answerMode: .auto, media: media)
            let (coordinator, visitor, visitorPeer) = (call.coordinator, call.visitor, call.visitorPeer)
            guard case .peerJoined(let devicePeer) = try await Self.next(&call.events) else {
                throw TestFailure("the device did not join")
            }
            #expect(devicePeer.name == "Gate 3")
            // answer = auto: the device accepts at once (no `ringing`) and, as the accepting side, sends the offer.
            let offer = try await Self.next(&call.events)
            #expect(offer == .signal(from: devicePeer.peerId, .offer(sdp: "v=0 scripted")), "\(offer)")
            await visitor.send(.answer(sdp: "v=0 answer"), to: devicePeer.peerId)
            try await AgentBackendTests.eventually(within: 5, "in call") {
                if case .inCall = await coordinator.state { return true }
                return false
            }
            await visitor.send(.bye(.hangup), to: devicePeer.peerId)
            try await AgentBackendTests.eventually(within: 5, "idle again") { await coordinator.state == .idle }
            #expect(media.log.withLock { $0 } == ["session \(visitorPeer)", "start offer", "remote answer", "stop"])
            await visitor.close()
        }
    }

    @Test func withAnswerByButtonTheCallRingsUntilAcceptIsPressed() async throws {
        try await RunningServer.with { server in
            var call = try await Self.placeCall(server, answerMode: .button, media: ScriptedMedia())
            let (coordinator, visitor) = (call.coordinator, call.visitor)
            guard case .peerJoined(let devicePeer) = try await Self.next(&call.events) else {
                throw TestFailure("the device did not join")
            }
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .ringing))
            try await Task.sleep(for: .milliseconds(300))
            guard case .ringing = await coordinator.state else {
                throw TestFailure("not ringing while waiting for the button: \(await coordinator.state)")
            }
            await coordinator.button(.acceptPress)
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .offer(sdp: "v=0 scripted")))
            await coordinator.button(.hangupPress)
            let ended = try await Self.next(&call.events)
            #expect(ended == .signal(from: devicePeer.peerId, .bye(.hangup)))
            await visitor.close()
        }
    }
}
