import CallCore
import Foundation
import IntercomAgent
import IntercomConfig
import Media
import ParseClient
import ParseWire
import ServerTestSupport
import ServiceLifecycle
import Testing

/// Issue #19 end to end: the agent's call coordinator, the shared encoder's test pattern and the real
/// server in-process. A call nobody answers leaves a `CallLog` row with a snapshot only the owner reads.
@Suite(.timeLimit(.minutes(2))) struct VisitorLogAgentTests {
    @Test func aCallNobodyAnswersLeavesAVisitWithASnapshotOfTheConfiguredSize() async throws {
        try await RunningServer.with { server in
            let (ownerClient, owner) = try await server.anonymousClient()
            let (strangerClient, _) = try await server.anonymousClient()
            let configuration = try TestDeviceConfiguration.load(serverURL: server.serverURL, """
                [call]
                answer = "button"
                ring_timeout = "5s"

                [video]
                source = "testpattern"
                width = 320
                height = 240

                [visits]
                owners = ["\(owner.objectId)"]
                """)
            let state = try AgentBackendTests.Device()
            let (identity, _, _) = try state.store.loadOrCreateIdentity()
            let session = BackendSession(settings: configuration.backend, identity: identity, store: state.store,
                                         logger: RunningServer.logger, policy: RetryPolicy(maxAttempts: 2))
            let deviceID = try await session.ensureLoggedIn()
            let media = MediaService.running(settings: .from(configuration.video, audio: configuration.audio),
                                             logger: RunningServer.logger)
            defer { media.stop() }
            let metrics = AgentMetrics()
            let visits = VisitorLog(session: session, frames: { await media.snapshotFrame(timeout: $0) },
                                    settings: configuration.visits, metrics: metrics, logger: RunningServer.logger)
            let coordinator = CallCoordinator(
                policy: CallPolicy.from(configuration.call), session: session,
                mediaFactory: CallCoordinatorTests.ScriptedMedia(), status: nil, deviceTitle: "Gate 3",
                visits: visits, logger: RunningServer.logger)
            let (rows, rowSink) = AsyncStream<ActiveSessionRow>.makeStream()
            let (callerClient, caller) = try await server.anonymousClient()
            let ringing = Date()
            try await AgentBackendTests.running([CallService(coordinator: coordinator, calls: rows)]) {
                let created = try await callerClient.send(CallCreateResponse.self) {
                    $0.createCall(NewCallRow(callerID: caller.objectId, callerTitle: "Visitor", receiverID: deviceID),
                                  requestId: $1)
                }
                let found = try await callerClient.send(QueryResults<ActiveSessionRow>.self) {
                    $0.find("ActiveSessions", where: [:], requestId: $1)
                }
                rowSink.yield(try #require(found.results.first { $0.sessionID == created.sessionID }))
                // Nobody answers: the ring times out after 5 s, then the row is written.
                try await AgentBackendTests.eventually(within: 20, "the visit is logged") {
                    try await Self.visits(ownerClient).count == 1
                }
            }
            let visit = try #require(try await Self.visits(ownerClient).first)
            #expect(visit.userID == deviceID)
            #expect(visit.callerID == caller.objectId && visit.callerTitle == "Visitor")
            #expect(visit.outcome == "missed" && visit.route == "webrtc" && visit.direction == "incoming")
            #expect(visit.answeredAt == nil)
            #expect(abs(visit.startedAt.date.timeIntervalSince(ringing)) < 3)
            #expect(visit.endedAt.date.timeIntervalSince(visit.startedAt.date) >= 4.5)
            #expect(try await Self.visits(strangerClient).isEmpty)

            let snapshot = try #require(visit.snapshot)
            let path = String(snapshot.url[try #require(snapshot.url.range(of: "/parse/files/")).lowerBound...])
            let response = try await AsyncHTTPParseTransport().execute(
                ParseWire.ParseRequest(method: .get, path: path), baseURL: "http://127.0.0.1:\(server.port)",
                timeout: .seconds(5))
            #expect(response.status == 200)
            let frame = try response.body.withUnsafeBytes { bytes throws(JPEGError) in try JPEGDecoder().decode(bytes) }
            #expect(frame.width == 320 && frame.height == 240)
        }
    }

    /// An answered call leaves an `answered` row with its answer time and the ring's snapshot.
    @Test func anAnsweredCallIsLoggedAsAnsweredWithItsSnapshot() async throws {
        try await RunningServer.with { server in
            let (ownerClient, owner) = try await server.anonymousClient()
            var settings = VisitSettings()
            settings.owners = [owner.objectId]
            let media = MediaService.running(
                settings: .init(width: 160, height: 120, fps: 15), logger: RunningServer.logger)
            defer { media.stop() }
            var call = try await CallCoordinatorTests.placeCall(
                server, policy: CallPolicy(answerMode: .auto), media: CallCoordinatorTests.ScriptedMedia(),
                visits: { session in
                    VisitorLog(session: session, frames: { await media.snapshotFrame(timeout: $0) },
                               settings: settings, metrics: nil, logger: RunningServer.logger)
                })
            guard case .peerJoined(let devicePeer) = try await CallCoordinatorTests.next(&call.events) else {
                throw TestFailure("the device did not join")
            }
            _ = try await CallCoordinatorTests.next(&call.events)  // ringing
            _ = try await CallCoordinatorTests.next(&call.events)  // offer
            await call.visitor.send(.answer(sdp: "v=0 answer"), to: devicePeer.peerId)
            let coordinator = call.coordinator
            try await AgentBackendTests.eventually(within: 5, "in call") {
                if case .inCall = await coordinator.state { return true }
                return false
            }
            await call.visitor.send(.bye(.hangup), to: devicePeer.peerId)
            try await AgentBackendTests.eventually(within: 15, "the visit is logged") {
                try await Self.visits(ownerClient).count == 1
            }
            await call.visitor.close()
            let visit = try #require(try await Self.visits(ownerClient).first)
            #expect(visit.outcome == "answered")
            let answeredAt = try #require(visit.answeredAt)
            #expect(answeredAt.date >= visit.startedAt.date && answeredAt.date <= visit.endedAt.date)
            #expect(visit.snapshot?.name.hasSuffix("_ring.jpg") == true)
        }
    }

    /// A ring with no frame (media not running) still leaves its row, without a picture; the failure counts.
    @Test func aSnapshotThatFailsLeavesTheRowWithoutAPicture() async throws {
        try await RunningServer.with { server in
            let (ownerClient, owner) = try await server.anonymousClient()
            let state = try AgentBackendTests.Device()
            let configuration = try TestDeviceConfiguration.load(
                serverURL: server.serverURL, "[visits]\nowners = [\"\(owner.objectId)\"]\n")
            let (identity, _, _) = try state.store.loadOrCreateIdentity()
            let session = BackendSession(settings: configuration.backend, identity: identity, store: state.store,
                                         logger: RunningServer.logger, policy: RetryPolicy(maxAttempts: 2))
            let metrics = AgentMetrics()
            let visits = VisitorLog(session: session, frames: { _ in nil }, settings: configuration.visits,
                                    metrics: metrics, logger: RunningServer.logger)
            await visits.ringStarted(1)
            await visits.callEnded(VisitPolicyTests.summary(.unanswered(.hangupButton)), ticket: 1)
            await visits.settle()
            let visit = try #require(try await Self.visits(ownerClient).first)
            #expect(visit.snapshot == nil && visit.outcome == "declined")
            var text: [UInt8] = []
            metrics.registry.emit(into: &text)
            #expect(String(decoding: text, as: UTF8.self).contains("intercom_snapshot_failures_total 1"))
        }
    }

    static func visits(_ client: ParseRESTClient) async throws -> [CallLogRow] {
        try await client.send(QueryResults<CallLogRow>.self) { $0.find("CallLog", where: [:], requestId: $1) }.results
    }
}
