import CallCore
import IntercomAgent
import ServerTestSupport
import Synchronization
import Testing

/// The call button's SIP target (issue #18) when SIP is not running: the attempt ends at once with a reason,
/// it deletes no call row, and the device is free again. (Placing the call for real is the sip stage's
/// `outgoing_test.py`, against kamailio and baresip.)
@Suite(.timeLimit(.minutes(1))) struct CallCoordinatorSIPTargetTests {
    final class Outcomes: CallObserver {
        let ended = Mutex<[CallSummary]>([])
        func callStateChanged(_ state: CallState, route: String?, newCall: Bool) {}
        func callEnded(_ summary: CallSummary) { ended.withLock { $0.append(summary) } }
    }

    @Test func aSIPTargetWithoutSIPRunningEndsTheAttemptWithAReason() async throws {
        try await RunningServer.with { server in
            let device = try AgentBackendTests.Device()
            let session = try device.session(server)
            _ = try await session.ensureLoggedIn()
            let outcomes = Outcomes()
            let coordinator = CallCoordinator(
                policy: CallPolicy(answerMode: .auto, callTarget: .sip(uri: "sip:reception@pbx.example"), callButtonCooldown: .zero),
                session: session, mediaFactory: CallCoordinatorTests.ScriptedMedia(), status: device.status,
                deviceTitle: "Gate 3", observer: outcomes, logger: RunningServer.logger)
            await coordinator.begin()
            await coordinator.button(.callPress)
            try await AgentBackendTests.eventually(within: 5, "the attempt ended") { !outcomes.ended.withLock { $0 }.isEmpty }
            let summary = try #require(outcomes.ended.withLock { $0 }.first)
            #expect(summary.direction == .outgoing)
            #expect(summary.remoteTitle == "sip:reception@pbx.example")
            #expect(summary.outcome == .unanswered(.createFailed("SIP is not running (yet)")), "\(summary.outcome)")
            #expect(await coordinator.state == .idle)
        }
    }
}
