import IntercomConfig
import IntercomPlatform
import Logging
import ParseClient
import ParseWire
import ServiceLifecycle
import CallCore

/// Assembles the agent's services for a validated configuration and runs them with graceful shutdown on
/// SIGTERM/SIGINT: started in order, stopped in reverse.
///
/// Today: the state directory and device identity, the backend login, presence (`ActiveUsers` row with
/// heartbeat, deleted on stop), call intake (LiveQuery plus polling, exactly once per row), the call
/// (state machine, signaling room, WebRTC media from the shared encoder pipeline) and the systemd
/// protocol. Controls (GPIO) and the microphone join this group as their issues land, each adding itself
/// to the readiness gate so that `READY=1` keeps meaning "really ready".
public struct AgentRuntime: Sendable {
    public var configuration: IntercomConfiguration
    public var environment: [String: String]

    public init(configuration: IntercomConfiguration, environment: [String: String]) {
        self.configuration = configuration
        self.environment = environment
    }

    public func run() async throws {
        let logger = Logger(label: "intercomd")
        let store = StateStore(directory: configuration.state.directory)
        try store.prepare()
        let (identity, recovery) = try store.loadOrCreateIdentity()
        if let recovery { logger.warning("state recovered: \(recovery)") }
        logger.info("device identity loaded", metadata: ["installation": "\(identity.installationID)", "state": "\(store.directory)"])

        let readiness = ReadinessGate(required: ["state", "backend"])
        await readiness.markReady("state")
        let status = AgentStatusBoard(title: configuration.identity.title)
        let backend = configuration.backend
        // Two tries per request: the presence and intake loops retry on their own schedule (capped at 8 s).
        let session = BackendSession(settings: backend, identity: identity, store: store, logger: logger,
                                     policy: RetryPolicy(maxAttempts: 2))
        let presence = PresenceService(
            session: session, heartbeat: configuration.presence.heartbeat, readiness: readiness, status: status,
            logger: logger, fields: try PresenceService.fields(for: configuration))
        let intake = CallIntakeService(
            session: session, liveQueryURL: backend.liveQueryURL.absoluteString, applicationId: backend.applicationID,
            clientKey: backend.clientKey, installationId: identity.installationID, status: status, logger: logger)
        let (policy, unsupported) = CallPolicy.from(configuration.call)
        for setting in unsupported { logger.warning("not supported yet: \(setting)") }
        logger.info("media: \(DeviceMediaPipeline.Settings.describe(configuration.video)), 440 Hz test tone as the microphone")
        let pipeline = DeviceMediaPipeline(settings: .from(configuration.video), logger: logger)
        let coordinator = CallCoordinator(
            policy: policy, session: session, mediaFactory: WebRTCCallMediaFactory(pipeline: pipeline, logger: logger),
            status: status, deviceTitle: configuration.identity.title, logger: logger)
        let calls = CallService(coordinator: coordinator, calls: intake.calls)
        let notify = SystemdNotifyService(
            notifier: SystemdNotifier(environment: environment), readiness: readiness, logger: logger
        ) { await status.line }
        // Started in this order and stopped in reverse: calls end first (a `bye` to the peer), the intake
        // stops, presence deletes the row, and systemd hears STOPPING=1 last.
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: notify), .init(service: presence), .init(service: intake), .init(service: calls)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            ))
        try await group.run()
        pipeline.stop()
        logger.info("stopped")
    }
}
