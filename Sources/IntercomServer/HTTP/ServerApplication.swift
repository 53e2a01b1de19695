import Hummingbird
import Logging
import ServiceLifecycle

/// The `intercom-server` HTTP application: `/health`, and the Parse REST subset under `/parse`
/// (parse-wire.md). LiveQuery, signaling and the web caller are mounted here by later work.
public enum ServerApplication {
    /// - Parameter sweeping: run the expiry sweeper as a service (tests that drive it by hand turn it off).
    public static func make(
        backend: IntercomBackend, logger: Logger, sweeping: Bool = true,
        onServerRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(backend: backend),
            configuration: .init(address: .hostname(backend.configuration.host, port: backend.configuration.port),
                                 serverName: "intercom-server"),
            services: sweeping ? [SweeperService(sweeper: backend.sweeper)] : [],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
            logger: logger)
    }

    public static func router(backend: IntercomBackend) -> Router<ParseRequestContext> {
        let router = Router(context: ParseRequestContext.self)
        router.get("health") { _, _ in HealthResponse(status: "ok") }
        let adapter = ParseHTTPAdapter(service: backend.parse, maxBodyBytes: backend.configuration.maxBodyBytes)
        for method in [HTTPRequest.Method.get, .post, .put, .delete, .options] {
            router.on("parse", method: method) { request, context in await adapter.respond(to: request, context: context) }
            router.on("parse/**", method: method) { request, context in
                await adapter.respond(to: request, context: context)
            }
        }
        return router
    }
}

struct HealthResponse: ResponseCodable {
    var status: String
}

/// Runs the sweeper alongside the server and stops it on graceful shutdown.
struct SweeperService: Service {
    let sweeper: ExpirySweeper

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await sweeper.run()
        }
    }
}
