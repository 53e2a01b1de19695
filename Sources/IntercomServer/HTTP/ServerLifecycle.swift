import Logging
import ServiceLifecycle

/// Runs the server until SIGTERM or SIGINT, with a bound on how long the graceful part may take.
///
/// On the signal, Hummingbird stops accepting, closes idle connections and sends WebSocket close frames,
/// then waits for every connection to finish. A client can make that wait long: a request whose headers
/// never complete holds it for the header timeout (10 s), and a WebSocket peer that never answers the close
/// handshake (a frozen tab, a half-open link) for the ping timeout plus the close timeout (~35 s). systemd
/// kills the server after `TimeoutStopSec=10s`, and `intercomd demo` after 5 s, so after `shutdownGrace` the
/// remaining connections are cancelled (closed) and the server exits cleanly instead of being killed.
public enum ServerLifecycle {
    /// Long enough for well-behaved clients to finish a request or answer a close frame (milliseconds on a
    /// LAN), short enough to stay well inside the supervisors' kill timeouts.
    public static let shutdownGrace: Duration = .seconds(3)

    public static func run(_ application: some Service, logger: Logger) async throws {
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: application)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownGrace
        try await ServiceGroup(configuration: configuration).run()
    }
}
