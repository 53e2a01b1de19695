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
        let host = settings.host, limit = endpoint.viewers.limit
        await LocalHTTPPort(host: host, port: settings.port, purpose: "WHEP", logger: logger).serve(
            router, listening: { "WHEP at http://\(host):\($0)/whep (at most \(limit) viewers)" }, onListening: onListening)
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
