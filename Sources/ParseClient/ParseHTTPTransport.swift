import ParseWire

/// One HTTP exchange with a Parse server. The REST client is written against this so its retry and
/// re-login logic can be tested with a scripted transport; `AsyncHTTPParseTransport` is the real one.
public protocol ParseHTTPTransport: Sendable {
    /// Sends `request` to `baseURL` (scheme and authority, e.g. `http://127.0.0.1:1337`). Throws only for
    /// transport failures (no HTTP response); every HTTP status is a response.
    func execute(_ request: ParseRequest, baseURL: String, timeout: Duration) async throws -> ParseHTTPResponse
}

public struct ParseHTTPResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    public var retryAfter: String?
    /// The `Date` header: when the server answered, by its clock.
    public var date: String?

    public init(status: Int, body: [UInt8], retryAfter: String? = nil, date: String? = nil) {
        self.status = status
        self.body = body
        self.retryAfter = retryAfter
        self.date = date
    }
}
