import Hummingbird
import IntercomConfig
import Logging
import ServiceLifecycle

/// The WHEP port (`[whep] listen`, docs/whep.md): `POST /whep` and `DELETE /whep/<id>` on Hummingbird, the
/// way `MetricsService` serves `/metrics`; `WHEPEndpoint` decides the answers. A port that cannot be bound
/// is logged and costs only WHEP. On stop every player's session ends.
public struct WHEPService: Service {
    let settings: WHEPSettings
    let endpoint: WHEPEndpoint
    let logger: Logger
    let onListening: @Sendable (Int) async -> Void
    /// An offer is a few kilobytes; anything much larger is not one.
    static let maximumOfferBytes = 64 * 1024

    public init(settings: WHEPSettings, endpoint: WHEPEndpoint, logger: Logger,
                onListening: @escaping @Sendable (Int) async -> Void = { _ in }) {
        self.settings = settings
        self.endpoint = endpoint
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        let router = Router()
        let endpoint = self.endpoint
        router.post("whep") { request, _ in
            let body = try await request.body.collect(upTo: Self.maximumOfferBytes)
            return Self.response(await endpoint.post(authorization: request.headers[.authorization],
                                                     accessToken: request.uri.queryParameters.get("access_token"),
                                                     contentType: request.headers[.contentType],
                                                     body: Array(body.readableBytesView)))
        }
        router.delete("whep/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return Self.response(await endpoint.delete(id: id, authorization: request.headers[.authorization],
                                                       accessToken: request.uri.queryParameters.get("access_token")))
        }
        let logger = self.logger, host = settings.host, onListening = self.onListening
        let application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: settings.port), serverName: "intercomd"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("WHEP at http://\(host):\(port)/whep (at most \(endpoint.viewers.limit) viewers)")
                await onListening(port)
            },
            logger: logger)
        do {
            try await application.run()
        } catch {
            logger.error("WHEP port \(host):\(settings.port) unavailable; the intercom runs without WHEP",
                         metadata: ["error": "\(error)"])
            try? await gracefulShutdown()
        }
        await endpoint.viewers.closeAll()
    }

    static func response(_ reply: WHEPReply) -> Response {
        var headers = HTTPFields()
        for (name, value) in reply.headers.sorted(by: { $0.key < $1.key }) {
            // HTTPFields.Element is swift-http-types' HTTPField, which Hummingbird does not re-export by name.
            if let field = HTTPFields.Element.Name(name) { headers[field] = value }
        }
        return Response(status: .init(code: reply.status), headers: headers,
                         body: .init(byteBuffer: ByteBuffer(string: reply.body)))
    }
}
