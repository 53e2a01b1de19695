/// A Parse REST request with its transport stripped off: what the HTTP adapter builds from a Hummingbird
/// request and what `/batch` builds from each sub-request.
struct ParseRequest: Sendable {
    enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    var method: Method
    /// Path components below the mount, e.g. `["classes", "ActiveUsers", "Ed1nuqPvcm"]`.
    var path: [String]
    /// Query-string parameters, each `JSON.parse`d when it parses (parse-server does the same), or the
    /// members of a `_method:GET` body.
    var parameters: [String: JSONValue] = [:]
    var body: JSONValue?
    var headers = ParseHeaders()
    /// Who sent it: the peer, or the client a trusted proxy reports (`ClientAddress`); an unknown
    /// address (nil) counts as remote.
    var client = ClientAddress(address: nil, forwardedByUntrustedPeer: false)

    var pathText: String { "/" + path.joined(separator: "/") }
}

/// The `X-Parse-*` headers (parse-wire.md §1), or their `_ApplicationId`-style body equivalents.
struct ParseHeaders: Sendable {
    var applicationId: String?
    /// Any of `X-Parse-REST-API-Key`, `X-Parse-Client-Key`, `X-Parse-Javascript-Key`, `X-Parse-Windows-Key`.
    var clientKeys: [String] = []
    var masterKey: String?
    var sessionToken: String?
    var installationId: String?
    var requestId: String?
    /// The Host header (for `Location` and the derived `signalURL`).
    var host: String?
    /// `X-Forwarded-Proto` from a TLS-terminating proxy.
    var forwardedProto: String?
    /// `X-Parse-Cloud-Context`: must be a JSON object when present (else 107).
    var cloudContext: String?
}

/// What a handler answers: a status, a JSON body and optionally a `Location`.
struct ParseResponse: Sendable {
    var status: Int
    var body: JSONValue
    var location: String?

    static func ok(_ body: JSONValue) -> ParseResponse {
        ParseResponse(status: 200, body: body)
    }

    static func failure(_ error: ParseError) -> ParseResponse {
        ParseResponse(status: error.httpStatus, body: error.body)
    }
}
