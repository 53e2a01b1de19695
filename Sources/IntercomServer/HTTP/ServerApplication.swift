import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOCore
import HummingbirdWebSocket
import Logging
import ServiceLifecycle

/// The `intercom-server` HTTP application (SYSTEM.md §10): `/health`, the Parse REST subset under `/parse`
/// (parse-wire.md), LiveQuery as a WebSocket on `/parse`, session signaling on `/signal`, and the web
/// caller's static files at `/`.
public enum ServerApplication {
    /// - Parameters:
    ///   - sweeping: run the expiry sweeper as a service (tests that drive it by hand turn it off).
    ///   - certificate: serve HTTPS with it (and reload it on SIGHUP); nil: plain HTTP.
    public static func make(
        backend: IntercomBackend, logger: Logger, sweeping: Bool = true, certificate: ServerCertificate? = nil,
        onServerRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var services: [any Service] = [
            SignalingSilenceService(rooms: backend.signaling),
            SessionRevalidationService(revalidator: backend.sessionRevalidator),
        ]
        if sweeping { services.append(SweeperService(sweeper: backend.sweeper)) }
        if let bus = backend.changeBus { services.append(BusService(bus: bus)) }
        services.append(CertificateReloadService(certificate: certificate, logger: logger))
        if let certificate {
            logger.info("serving HTTPS with \(certificate.credentials.files.certificateFile): \(certificate.credentials.summary)")
        }
        let webSocketSettings = WebSocketServerConfiguration(
            maxFrameSize: LiveQueryFrameLimit.bytes,
            // parse-server pings every 10 s and drops a socket that missed the previous pong.
            autoPing: .enabled(timePeriod: .seconds(10)))
        let limits = backend.configuration.connectionLimits
        let openFiles = FileDescriptorLimit.raiseToHardLimit()
        let counter = ConnectionCounter(
            limit: limits.maxConnections ?? FileDescriptorLimit.connectionCap(openFiles: openFiles))
        logger.info("connection limits",
                    metadata: ["open-files": "\(openFiles)", "max-connections": "\(counter.limit)",
                               "idle-timeout-s": "\(limits.idleTimeoutSeconds)",
                               "header-timeout-s": "\(limits.headerTimeoutSeconds)"])
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: .seconds(limits.idleTimeoutSeconds),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.maxHeaderBytes,
                                            maxHeaderListSize: limits.maxHeaderBytes,
                                            maxHeaderFieldCount: limits.maxHeaderCount))
        let webSocketResponder = webSocketRouter(backend: backend).buildResponder()
        let tlsConfiguration = certificate?.tlsConfiguration
        let server = HTTPServerBuilder { responder in
            let guarded = GuardedHTTPChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(http1: http1, ws: webSocketSettings)),
                counter: counter, limits: limits)
            guard let tlsConfiguration else { return guarded }
            return try TLSChannel(guarded, tlsConfiguration: tlsConfiguration)
        }
        return Application(
            router: router(backend: backend, logger: logger),
            server: server,
            configuration: .init(address: .hostname(backend.configuration.host, port: backend.configuration.port),
                                 serverName: "intercom-server", backlog: 1024),
            services: services,
            onServerRunning: { channel in
                backend.boundPort.port = channel.localAddress?.port
                await onServerRunning(channel.localAddress?.port)
            },
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
        router.get("health") { _, _ in await backend.health.response() }
        let adapter = ParseHTTPAdapter(service: backend.parse, maxBodyBytes: backend.configuration.maxBodyBytes,
                                       bodyTimeoutSeconds: backend.configuration.connectionLimits.bodyTimeoutSeconds)
        let files = FilesEndpoint(adapter: adapter)
        // One parameter name at the first level: Hummingbird's trie refuses two (`:name` vs `:appId`).
        router.post("parse/files/:segment") { request, context in await files.upload(request, context: context) }
        router.delete("parse/files/:segment") { request, context in await files.delete(request, context: context) }
        router.get("parse/files/:segment/:name") { request, context in await files.download(request, context: context) }
        for method in [HTTPRequest.Method.get, .post, .put, .delete, .options] {
            router.on("parse", method: method) { request, context in await adapter.respond(to: request, context: context) }
            router.on("parse/**", method: method) { request, context in
                await adapter.respond(to: request, context: context)
            }
        }
        return router
    }

    /// Upgrades `GET /parse` (LiveQuery: the SDKs use the server URL with http→ws) and `GET /signal`.
    static func webSocketRouter(backend: IntercomBackend) -> Router<PeerWebSocketRequestContext> {
        let router = Router(context: PeerWebSocketRequestContext.self)
        let liveQuery = LiveQueryEndpoint(hub: backend.liveQuery)
        let signaling = SignalingEndpoint(relay: backend.signalingRelay)
        router.ws("parse") { inbound, outbound, context in
            let client = ClientAddress.resolve(
                peer: context.requestContext.remoteIP, forwardedFor: ForwardingHeaders.forwardedFor(context.request.headers),
                forwarded: ForwardingHeaders.forwarded(context.request.headers), trustedProxies: backend.configuration.trustedProxies)
            await liveQuery.serve(inbound: inbound, outbound: outbound, client: client, logger: context.logger)
        }
        router.ws("signal") { inbound, outbound, context in
            await signaling.serve(inbound: inbound, outbound: outbound, logger: context.logger)
        }
        return router
    }
}

/// Runs the fleet's bus (`PostgresBus`: changes, signaling, heartbeats) until graceful shutdown.
struct BusService: Service {
    let bus: PostgresBus

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await bus.run()
        }
    }
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

/// Ends LiveQuery sockets and subscriptions whose session ended (`SessionRevalidator`).
struct SessionRevalidationService: Service {
    let revalidator: SessionRevalidator

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await revalidator.run()
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
