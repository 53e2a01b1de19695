import Hummingbird

/// Turns Hummingbird requests under `/parse` into `ParseRequest`s and `ParseResponse`s back into JSON
/// responses with Parse's headers (parse-wire.md §1: any Content-Type is JSON; CORS for browsers).
struct ParseHTTPAdapter: Sendable {
    let service: ParseService
    let maxBodyBytes: Int
    /// The whole body must arrive within this (`ConnectionLimits.bodyTimeoutSeconds`).
    let bodyTimeoutSeconds: Int64

    static let corsHeaders: HTTPFields = [
        .accessControlAllowOrigin: "*",
        .accessControlAllowMethods: "GET,PUT,POST,DELETE,OPTIONS",
        .accessControlAllowHeaders: "X-Parse-Master-Key, X-Parse-REST-API-Key, X-Parse-Javascript-Key, "
            + "X-Parse-Application-Id, X-Parse-Client-Version, X-Parse-Session-Token, X-Requested-With, "
            + "X-Parse-Revocable-Session, X-Parse-Request-Id, X-Parse-Installation-Id, X-Parse-Client-Key, "
            + "X-Parse-Cloud-Context, Content-Type, Pragma, Cache-Control",
        .accessControlExposeHeaders: "X-Parse-Job-Status-Id, X-Parse-Push-Status-Id",
    ]

    func respond(to request: Request, context: ParseRequestContext) async -> Response {
        guard let method = ParseRequest.Method(rawValue: request.method.rawValue) else {
            return Response(status: .ok, headers: Self.corsHeaders)  // OPTIONS preflight
        }
        var parseRequest = ParseRequest(method: method, path: Self.components(of: request.uri.path))
        parseRequest.parameters = QueryString.parameters(request.uri.query)
        parseRequest.headers = Self.headers(request.headers)
        // HTTP/1.1's Host header arrives as the :authority pseudo-header in swift-http-types.
        parseRequest.headers.host = request.head.authority
        parseRequest.client = ClientAddress.resolve(
            peer: context.remoteIP, forwardedFor: ForwardingHeaders.forwardedFor(request.headers),
            forwarded: ForwardingHeaders.forwarded(request.headers), trustedProxies: service.configuration.trustedProxies)
        do {
            let bytes = try await BodyDeadline.collect(request.body, upTo: maxBodyBytes,
                                                       within: .seconds(bodyTimeoutSeconds))
            if bytes.readableBytes > 0 {
                parseRequest.body = try JSONCoding.decode(bytes.readableBytesView)
            }
        } catch is BodyDeadline.Expired {
            return Self.closing(Self.response(.failure(ParseError(plainStatus: 408, "request body not received in time"))))
        } catch let malformed as JSONCoding.Malformed {
            return Self.response(.failure(ParseError(plainStatus: 400, malformed.message)))
        } catch {
            return Self.response(.failure(ParseError(plainStatus: 413, "request entity too large")))
        }
        return Self.response(await service.handle(parseRequest))
    }

    /// `/parse/classes/A%20B` → `["classes", "A B"]`.
    static func components(of path: String) -> [String] {
        let parts = path.split(separator: "/").map { QueryString.decode($0) }
        return parts.first == "parse" ? Array(parts.dropFirst()) : parts
    }

    static func headers(_ fields: HTTPFields) -> ParseHeaders {
        func value(_ name: String) -> String? {
            // HTTPFields.Element is swift-http-types' HTTPField, which Hummingbird does not re-export by name.
            HTTPFields.Element.Name(name).flatMap { fields[$0] }
        }
        var headers = ParseHeaders()
        headers.applicationId = value("X-Parse-Application-Id")
        headers.clientKeys = ["X-Parse-REST-API-Key", "X-Parse-Client-Key", "X-Parse-Javascript-Key",
                              "X-Parse-Windows-Key"].compactMap(value)
        headers.masterKey = value("X-Parse-Master-Key")
        headers.sessionToken = value("X-Parse-Session-Token")
        headers.installationId = value("X-Parse-Installation-Id")
        headers.requestId = value("X-Parse-Request-Id")
        headers.forwardedProto = value("X-Forwarded-Proto")?.lowercased()
        headers.cloudContext = value("X-Parse-Cloud-Context")
        return headers
    }

    /// `response` with `Connection: close`: the rest of an abandoned body must not be read as a request.
    static func closing(_ response: Response) -> Response {
        var response = response
        response.headers[.connection] = "close"
        return response
    }

    static func response(_ parseResponse: ParseResponse) -> Response {
        var headers = corsHeaders
        headers[.contentType] = "application/json; charset=utf-8"
        if let location = parseResponse.location { headers[.location] = location }
        return Response(
            status: HTTPResponse.Status(code: parseResponse.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONCoding.encode(parseResponse.body))))
    }
}
