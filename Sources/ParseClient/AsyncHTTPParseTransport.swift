import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import ParseWire
import Synchronization

/// `ParseHTTPTransport` on async-http-client, with a bounded deadline per attempt and a bounded body.
public struct AsyncHTTPParseTransport: ParseHTTPTransport {
    /// Responses larger than this are a transport failure: no Parse answer a device needs comes near it.
    public static let maxResponseBytes = 4 << 20

    private let client: HTTPClient

    public init(client: HTTPClient = AsyncHTTPParseTransport.sharedClient) {
        self.client = client
    }

    /// A transport trusting `trust` besides the system's roots: the shared client, or (with a `ca_file`)
    /// one client per CA file for the process.
    public init(trust: BackendTrust) {
        self.init(client: trust.caFile == nil ? Self.sharedClient : Self.client(trusting: trust))
    }

    /// One client for the process (never shut down, like `HTTPClient.shared`).
    public static let sharedClient = makeClient()

    /// Clients that trust a CA file, made once per file and never shut down (like `sharedClient`).
    private static let trustingClients = Mutex<[String: HTTPClient]>([:])

    static func client(trusting trust: BackendTrust) -> HTTPClient {
        trustingClients.withLock { clients in
            let key = trust.caFile ?? ""
            if let client = clients[key] { return client }
            let client = makeClient(tlsConfiguration: trust.tlsConfiguration)
            clients[key] = client
            return client
        }
    }

    /// A client that fails a refused connection at once instead of re-trying it until the request deadline
    /// (`ParseRESTClient` owns the retry policy, the presence loop its own backoff, so an outage is noticed and
    /// counted honestly), on one event loop of NIO's shared group. On one loop the pool always lends the
    /// connection returned last, so a surplus connection (two requests at once in a call) idles out after
    /// `idleTimeout`; across two loops the pool alternates between connections per loop, and the heartbeat
    /// and the safety poll kept a second one alive for good.
    public static func makeClient(idleTimeout: TimeAmount = .seconds(60), tlsConfiguration: TLSConfiguration? = nil) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = tlsConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.idleTimeout = idleTimeout
        configuration.timeout.connect = .seconds(5)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup.next(), configuration: configuration)
    }

    public func execute(_ request: ParseRequest, baseURL: String, timeout: Duration) async throws -> ParseHTTPResponse {
        var outgoing = HTTPClientRequest(url: baseURL + request.pathAndQuery)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let seconds = timeout.components.seconds
        let response = try await client.execute(outgoing, timeout: .seconds(max(seconds, 1)))
        let body = try await response.body.collect(upTo: Self.maxResponseBytes)
        return ParseHTTPResponse(
            status: Int(response.status.code), body: Array(body.readableBytesView),
            retryAfter: response.headers.first(name: "Retry-After"), date: response.headers.first(name: "Date"))
    }
}
