import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle

/// The `intercom-server` HTTP application (SYSTEM.md §10): `/health`, the Parse REST subset under `/parse`
/// (parse-wire.md), LiveQuery as a WebSocket on `/parse`, session signaling on `/signal`, and the web
/// caller's static files at `/`.
public enum ServerApplication {
    /// - Parameter sweeping: run the expiry sweeper as a service (tests that drive it by hand turn it off).
    public static func make(
        backend: IntercomBackend, logger: Logger, sweeping: Bool = true,
        onServerRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var services: [any Service] = [SignalingSilenceService(rooms: backend.signaling)]
        if sweeping { services.append(SweeperService(sweeper: backend.sweeper)) }
        let webSocketSettings = WebSocketServerConfiguration(
            maxFrameSize: LiveQueryFrameLimit.bytes,
            // parse-server pings every 10 s and drops a socket that missed the previous pong.
            autoPing: .enabled(timePeriod: .seconds(10)))
        return Application(
            router: router(backend: backend, logger: logger),
            server: .http1WebSocketUpgrade(
                webSocketRouter: webSocketRouter(backend: backend), configuration: .init(ws: webSocketSettings)),
            configuration: .init(address: .hostname(backend.configuration.host, port: backend.configuration.port),
                                 serverName: "intercom-server"),
            services: services,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
            logger: logger)
    }

    public static func router(backend: IntercomBackend, logger: Logger = Logger(label: "intercom-server"))
        -> Router<ParseRequestContext>
    {
        let router = Router(context: ParseRequestContext.self)
        if let webRoot = WebCallerLocation.resolve(configured: backend.configuration.webRoot) {
            router.middlewares.add(FileMiddleware(webRoot, searchForIndexHtml: true, logger: logger))
        } else {
            logger.warning("web caller files not found; set --web-root or INTERCOM_WEB_ROOT to serve them at /")
        }
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

    /// Upgrades `GET /parse` (LiveQuery: the SDKs use the server URL with http→ws) and `GET /signal`.
    static func webSocketRouter(backend: IntercomBackend) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        let liveQuery = LiveQueryEndpoint(hub: backend.liveQuery)
        let signaling = SignalingEndpoint(rooms: backend.signaling)
        router.ws("parse") { inbound, outbound, context in
            await liveQuery.serve(inbound: inbound, outbound: outbound, logger: context.logger)
        }
        router.ws("signal") { inbound, outbound, context in
            await signaling.serve(inbound: inbound, outbound: outbound, logger: context.logger)
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

/// Drops signaling peers that stayed silent past `SignalingRooms.silenceLimit` (checked every 5 s).
struct SignalingSilenceService: Service {
    let rooms: SignalingRooms

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                await rooms.dropSilentPeers()
            }
        }
    }
}
