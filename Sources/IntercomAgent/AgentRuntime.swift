import IntercomConfig
import IntercomPlatform
import Logging
import ServiceLifecycle

/// Assembles the agent's services for a validated configuration and runs them with graceful shutdown on
/// SIGTERM/SIGINT: started in order, stopped in reverse.
///
/// Today the runtime brings up the state directory and device identity and speaks the systemd protocol;
/// backend registration, call intake, media and controls join this group as their issues land, each adding
/// itself to the readiness gate so that `READY=1` keeps meaning "really ready".
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

        let readiness = ReadinessGate(required: ["state"])
        await readiness.markReady("state")
        let title = configuration.identity.title
        let notify = SystemdNotifyService(
            notifier: SystemdNotifier(environment: environment), readiness: readiness, logger: logger
        ) { "idle, \(title)" }
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: notify)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            ))
        try await group.run()
        logger.info("stopped")
    }
}
