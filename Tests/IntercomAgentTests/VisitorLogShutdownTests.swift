import CallCore
import Foundation
import IntercomAgent
import IntercomConfig
import Media
import ParseClient
import ParseWire
import ServerTestSupport
import Testing

/// Issue #19 follow-up: a SIGTERM right after a visit (the graceful shutdown `AgentRuntime` runs on it)
/// gives the visitor log a bounded time, so the last visit's snapshot and row are stored before exit.
@Suite(.timeLimit(.minutes(2))) struct VisitorLogShutdownTests {
    /// A logged-in device whose visits `owner` reads; the state directory is returned to keep it alive.
    static func device(_ server: RunningServer, owner: String) async throws
        -> (VisitSettings, BackendSession, AgentBackendTests.Device)
    {
        let state = try AgentBackendTests.Device()
        let configuration = try TestDeviceConfiguration.load(
            serverURL: server.serverURL, "[visits]\nowners = [\"\(owner)\"]\n")
        let (identity, _, _) = try state.store.loadOrCreateIdentity()
        let session = BackendSession(settings: configuration.backend, identity: identity, store: state.store,
                                     logger: RunningServer.logger, policy: RetryPolicy(maxAttempts: 2))
        _ = try await session.ensureLoggedIn()
        return (configuration.visits, session, state)
    }

    @Test func shutdownWaitsForTheLastVisitsSnapshotAndRow() async throws {
        try await RunningServer.with { server in
            let (ownerClient, owner) = try await server.anonymousClient()
            let (settings, session, state) = try await Self.device(server, owner: owner.objectId)
            let media = MediaService.running(settings: .init(width: 160, height: 120, fps: 15), logger: RunningServer.logger)
            defer { media.stop() }
            // The frame arrives 800 ms late (a camera still opening), so the upload is in flight at SIGTERM.
            let visits = VisitorLog(session: session, frames: { timeout in
                try? await Task.sleep(for: .milliseconds(800))
                return await media.snapshotFrame(timeout: timeout)
            }, settings: settings, metrics: nil, logger: RunningServer.logger)
            await visits.ringStarted(7)
            await visits.callEnded(VisitPolicyTests.summary(.unanswered(.ringTimeout)), ticket: 7)
            #expect(await visits.pending == 1)

            defer { withExtendedLifetime(state) {} }
            let started = ContinuousClock.now
            try await AgentBackendTests.running([VisitorLogService(log: visits, logger: RunningServer.logger)]) {}
            let stopping = ContinuousClock.now - started
            #expect(stopping >= .milliseconds(700) && stopping < .seconds(3) + .milliseconds(500))
            #expect(await visits.pending == 0)
            // Stored by the time the service returned: no waiting here.
            let rows = try await VisitorLogAgentTests.visits(ownerClient)
            #expect(rows.count == 1)
            #expect(rows.first?.outcome == "missed")
            #expect(rows.first?.snapshot?.name.hasSuffix("_ring.jpg") == true)
        }
    }

    @Test func shutdownGivesUpAfterTheGrace() async throws {
        try await RunningServer.with { server in
            let (_, owner) = try await server.anonymousClient()
            let (settings, session, state) = try await Self.device(server, owner: owner.objectId)
            // A camera that never delivers: the snapshot would wait its full 5 s frame timeout.
            let visits = VisitorLog(session: session, frames: { timeout in
                try? await Task.sleep(for: timeout)
                return nil
            }, settings: settings, metrics: nil, logger: RunningServer.logger)
            await visits.ringStarted(1)
            await visits.callEnded(VisitPolicyTests.summary(.unanswered(.ringTimeout)), ticket: 1)

            defer { withExtendedLifetime(state) {} }
            let started = ContinuousClock.now
            try await AgentBackendTests.running(
                [VisitorLogService(log: visits, grace: .milliseconds(300), logger: RunningServer.logger)]) {}
            let stopping = ContinuousClock.now - started
            // Waiting for the camera would take its full 5 s; the grace is 300 ms (the rest is a loaded unit stage's slack).
            #expect(stopping >= .milliseconds(250) && stopping < .seconds(4))
            #expect(await visits.pending == 1)
            #expect(await visits.settle(within: .milliseconds(50)) == false)
        }
    }

    @Test func nothingUnderWayMeansNoWait() async throws {
        try await RunningServer.with { server in
            let (_, owner) = try await server.anonymousClient()
            let (settings, session, state) = try await Self.device(server, owner: owner.objectId)
            let visits = VisitorLog(session: session, frames: nil, settings: settings, metrics: nil,
                                    logger: RunningServer.logger)
            defer { withExtendedLifetime(state) {} }
            let started = ContinuousClock.now
            try await AgentBackendTests.running([VisitorLogService(log: visits, logger: RunningServer.logger)]) {}
            // Nothing to wait for: well under the 3 s grace a pending visit would get.
            #expect(ContinuousClock.now - started < .seconds(2))
            #expect(await visits.settle(within: .seconds(1)))
        }
    }
}
