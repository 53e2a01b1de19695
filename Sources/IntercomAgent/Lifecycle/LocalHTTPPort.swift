import Hummingbird
import Logging
import ServiceLifecycle

/// One of the agent's own HTTP ports (metrics and health, WHEP) on Hummingbird: serves `router` on
/// `host:port` until the service group stops. A port that cannot be bound is logged and costs only what it
/// serves (`purpose`): the intercom keeps working.
struct LocalHTTPPort {
    let host: String
    let port: Int
    /// What the port is for, in the log: `metrics`, `WHEP`.
    let purpose: String
    let logger: Logger

    /// `listening` is logged with the bound port once it is open (`port` 0 picks a free one); `onListening`
    /// hears the port too.
    func serve(_ router: Router<BasicRequestContext>, listening: @escaping @Sendable (Int) -> String,
               onListening: @escaping @Sendable (Int) async -> Void) async {
        let logger = self.logger
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "intercomd"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                logger.info("\(listening(bound))")
                await onListening(bound)
            },
            logger: logger)
        do {
            try await application.run()
        } catch {
            logger.error("\(purpose) port \(host):\(port) unavailable; the intercom runs without \(purpose)",
                         metadata: ["error": "\(error)"])
            try? await gracefulShutdown()
        }
    }
}
