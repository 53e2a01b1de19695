import CallCore
import Foundation
import IntercomAgent
import ParseClient
import ParseWire
import ServerTestSupport
import Synchronization
import Testing

/// The agent's call wiring against a real server and a real signaling room, with a scripted media session
/// standing in for WebRTC: row → join → answer policy (`ringing` while it waits) → offer → media up → `bye`.
@Suite(.timeLimit(.minutes(1))) struct CallCoordinatorTests {
    /// Sends a fixed offer when told to start, and reports media up once the peer's answer arrives.
    final class ScriptedMedia: CallMediaSession, CallMediaFactory {
        let log = Mutex<[String]>([])
        let stateSink = Mutex<(@Sendable (MediaState) -> Void)?>(nil)
        /// What the session reports when the peer's answer arrives (`.up`; a failure to script one that
        /// never connects).
        let onAnswer: MediaState

        init(onAnswer: MediaState = .up) {
            self.onAnswer = onAnswer
        }

        func makeSession(sessionID: String, peer: String) -> any CallMediaSession {
            log.withLock { $0.append("session \(peer)") }
            return self
        }

        func start(plan: MediaPlan, iceServers: [IceServer], early: [SignalPayload],
                   signal: @escaping @Sendable (SignalPayload) async -> Void,
                   state: @escaping @Sendable (MediaState) -> Void) async throws {
            log.withLock { $0.append("start \(plan.negotiation == .sendOffer ? "offer" : "answer")") }
            stateSink.withLock { $0 = state }
            await signal(.offer(sdp: "v=0 scripted"))
        }

        func remote(_ payload: SignalPayload) async {
            log.withLock { $0.append("remote \(payload.json["type"]?.stringValue ?? "?")") }
            if case .answer = payload, let state = stateSink.withLock({ $0 }) { state(onAnswer) }
        }

        func stop() async { log.withLock { $0.append("stop") } }

        /// What the coordinator said about the calls' need for media, in order.
        let demand = Mutex<[Bool]>([])
        func callsNeedMedia(_ needed: Bool) { demand.withLock { $0.append(needed) } }
    }

    /// A session per peer that, like `WebRTCCallMedia`, reports media up once the peer's answer arrives and
    /// down when it is stopped.
    final class PerPeerMedia: CallMediaFactory {
        let log = Mutex<[String]>([])

        final class Session: CallMediaSession {
            let peer: String
            let owner: PerPeerMedia
            let stateSink = Mutex<(@Sendable (MediaState) -> Void)?>(nil)

            init(peer: String, owner: PerPeerMedia) {
                self.peer = peer
                self.owner = owner
            }

            func start(plan: MediaPlan, iceServers: [IceServer], early: [SignalPayload],
                       signal: @escaping @Sendable (SignalPayload) async -> Void,
                       state: @escaping @Sendable (MediaState) -> Void) async throws {
                owner.record("start \(peer) \(plan.audio ? "audio+video" : "video only")")
                stateSink.withLock { $0 = state }
                await signal(.offer(sdp: "v=0 scripted"))
            }

            func remote(_ payload: SignalPayload) async {
                if case .answer = payload, let state = stateSink.withLock({ $0 }) { state(.up) }
            }

            func stop() async {
                owner.record("stop \(peer)")
                if let state = stateSink.withLock({ $0 }) { state(.down) }
            }
        }

        func record(_ line: String) { log.withLock { $0.append(line) } }

        func makeSession(sessionID: String, peer: String) -> any CallMediaSession {
            Session(peer: peer, owner: self)
        }
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
        /// The caller's REST client (signed in) and the call's session, e.g. to mint a viewer token.
        let callerClient: ParseRESTClient
        let sessionID: String
    }

    static func placeCall(_ server: RunningServer, answerMode: AnswerMode, media: any CallMediaFactory) async throws
        -> PlacedCall
    {
        try await placeCall(server, policy: CallPolicy(answerMode: answerMode), media: media)
    }

    /// `visits` makes the device's visitor log on its session (issue #19), nil for none.
    static func placeCall(_ server: RunningServer, policy: CallPolicy, media: any CallMediaFactory,
                          metrics: AgentMetrics? = nil, visits: ((BackendSession) -> VisitorLog)? = nil,
                          messageSpeaker: MessageSpeaker? = nil)
        async throws -> PlacedCall
    {
        let device = try AgentBackendTests.Device()
        let session = try device.session(server)
        let deviceID = try await session.ensureLoggedIn()
        let coordinator = CallCoordinator(
            policy: policy, session: session, mediaFactory: media, status: device.status,
            deviceTitle: "Gate 3", metrics: metrics, visits: visits?(session), messageSpeaker: messageSpeaker,
            logger: RunningServer.logger)
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
        return PlacedCall(coordinator: coordinator, visitor: visitor, visitorPeer: visitorPeer, events: events,
                          callerClient: callerClient, sessionID: try #require(created.sessionID))
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
            // answer = auto: the device says `ringing` as soon as it is in the room, then, as the accepting
            // side, sends the offer.
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .ringing))
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
            // The camera and encoders were wanted from the ring to the end of the call, once each way (the
            // coordinator says so after the input that ended the call, which the state can show a moment sooner).
            try await AgentBackendTests.eventually(within: 5, "media no longer needed") {
                media.demand.withLock { $0 } == [true, false]
            }
            await visitor.close()
        }
    }

    @Test func withAnswerByButtonTheCallRingsUntilAcceptIsPressed() async throws {
        try await RunningServer.with { server in
            let media = ScriptedMedia()
            var call = try await Self.placeCall(server, answerMode: .button, media: media)
            let (coordinator, visitor) = (call.coordinator, call.visitor)
            guard case .peerJoined(let devicePeer) = try await Self.next(&call.events) else {
                throw TestFailure("the device did not join")
            }
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .ringing))
            try await Task.sleep(for: .milliseconds(300))
            guard case .ringing = await coordinator.state else {
                throw TestFailure("not ringing while waiting for the button: \(await coordinator.state)")
            }
            #expect(media.demand.withLock { $0 } == [true], "media must warm up while the call rings")
            await coordinator.button(.acceptPress)
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .offer(sdp: "v=0 scripted")))
            await coordinator.button(.hangupPress)
            let ended = try await Self.next(&call.events)
            #expect(ended == .signal(from: devicePeer.peerId, .bye(.hangup)))
            try await AgentBackendTests.eventually(within: 5, "idle again") { await coordinator.state == .idle }
            // Media was wanted while the call rang (before the button), and no longer once it ended.
            try await AgentBackendTests.eventually(within: 5, "media no longer needed") {
                media.demand.withLock { $0 } == [true, false]
            }
            await visitor.close()
        }
    }

    /// A viewer's connection ending is not the call's media going down: the call outlives it (before, the
    /// viewer's media-down started the call's media timeout and the call ended `mediaTimeout` after it).
    @Test func aViewerLeavingDoesNotStartTheCallsMediaTimeout() async throws {
        try await RunningServer.with { server in
            let media = PerPeerMedia()
            let policy = CallPolicy(answerMode: .auto, mediaTimeout: .milliseconds(500), maxViewers: 1)
            var call = try await Self.placeCall(server, policy: policy, media: media)
            let (coordinator, visitor) = (call.coordinator, call.visitor)
            guard case .peerJoined(let devicePeer) = try await Self.next(&call.events) else {
                throw TestFailure("the device did not join")
            }
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .ringing))
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .offer(sdp: "v=0 scripted")))
            await visitor.send(.answer(sdp: "v=0 answer"), to: devicePeer.peerId)
            try await AgentBackendTests.eventually(within: 5, "in call") {
                if case .inCall = await coordinator.state { return true }
                return false
            }

            let sessionID = call.sessionID
            let minted = try await call.callerClient.send(FunctionResponse<ViewerTokenResult>.self) {
                $0.viewerToken(sessionID: sessionID, requestId: $1)
            }.result
            let watcher = SignalingConnection(url: minted.signalURL ?? "", token: minted.token, name: "Watcher",
                                              logger: RunningServer.logger)
            var watcherEvents = watcher.events.makeAsyncIterator()
            await watcher.start()
            guard case .joined(let watcherPeer, _, _, _) = try await Self.next(&watcherEvents) else {
                throw TestFailure("the watcher did not join")
            }
            var offered = false
            while !offered {
                switch try await Self.next(&watcherEvents) {
                case .signal(let from, .offer) where from == devicePeer.peerId: offered = true
                case .closed, .refused: throw TestFailure("the watcher was not admitted")
                default: continue
                }
            }
            await watcher.send(.answer(sdp: "v=0 watcher answer"), to: devicePeer.peerId)
            await watcher.close()
            try await AgentBackendTests.eventually(within: 5, "the viewer's media stopped") {
                media.log.withLock { $0.contains("stop \(watcherPeer)") }
            }

            try await Task.sleep(for: .milliseconds(1500))  // three media timeouts
            guard case .inCall = await coordinator.state else {
                throw TestFailure("the call ended when its viewer left: \(await coordinator.state)")
            }
            #expect(media.log.withLock { $0 } == [
                "start \(call.visitorPeer) audio+video", "start \(watcherPeer) video only", "stop \(watcherPeer)"])
            await visitor.send(.bye(.hangup), to: devicePeer.peerId)
            try await AgentBackendTests.eventually(within: 5, "idle again") { await coordinator.state == .idle }
            await visitor.close()
        }
    }

    /// A call whose ICE never connects is not "answered": it ends at the media timeout as
    /// `failed(iceFailed)`, and the metric counts it `outcome="failed", reason="ice_failed"`.
    @Test func aCallWhoseICENeverConnectsIsCountedFailed() async throws {
        try await RunningServer.with { server in
            let metrics = AgentMetrics()
            let policy = CallPolicy(answerMode: .auto, mediaTimeout: .milliseconds(600))
            var call = try await Self.placeCall(server, policy: policy, media: ScriptedMedia(onAnswer: .failed(.iceFailed)),
                                                metrics: metrics)
            let (coordinator, visitor) = (call.coordinator, call.visitor)
            guard case .peerJoined(let devicePeer) = try await Self.next(&call.events) else {
                throw TestFailure("the device did not join")
            }
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .ringing))
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .offer(sdp: "v=0 scripted")))
            await visitor.send(.answer(sdp: "v=0 answer"), to: devicePeer.peerId)
            #expect(try await Self.next(&call.events) == .signal(from: devicePeer.peerId, .bye(.timeout)))
            try await AgentBackendTests.eventually(within: 5, "idle again") { await coordinator.state == .idle }
            let exposition = String(decoding: metrics.exposition(status: AgentStatusSnapshot(registered: true, liveQueryUp: true, callsReceived: 1, callState: "idle", line: "idle"), temperatureCelsius: nil),
                                    as: UTF8.self)
            let counted = exposition.split(separator: "\n").filter { $0.hasPrefix("intercom_calls_total{") && !$0.hasSuffix(" 0") }
            #expect(counted == [#"intercom_calls_total{direction="incoming",outcome="failed",reason="ice_failed",route="webrtc"} 1"#],
                    "\(counted)")
            await visitor.close()
        }
    }
}
