import Foundation
import Hummingbird
import HummingbirdTesting
import IntercomServer

/// A response decoded for assertions.
struct ParseReply: Sendable {
    let status: Int
    let json: JSONValue
    let headers: HTTPFields

    func header(_ name: String) -> String? {
        HTTPFields.Element.Name(name).flatMap { headers[$0] }
    }

    subscript(key: String) -> JSONValue? { json[key] }

    var errorCode: Int? { json["code"]?.integerValue }
    var results: [JSONValue] { json["results"]?.arrayValue ?? [] }
    var objectIds: [String] { results.compactMap { $0["objectId"]?.stringValue } }
}

/// A session user as the tests see it.
struct TestUser: Sendable {
    let objectId: String
    let sessionToken: String
}

/// Speaks Parse REST to the server under test: application id by default, optional session token.
struct ParseTestClient: Sendable {
    let client: any TestClientProtocol

    static let applicationId = "intercom"

    func send(_ method: HTTPRequest.Method, _ path: String, body: JSONValue? = nil, rawBody: String? = nil,
              token: String? = nil, headers extra: [String: String] = [:],
              applicationId: String? = ParseTestClient.applicationId) async throws -> ParseReply {
        var headers = HTTPFields()
        func set(_ name: String, _ value: String) {
            if let field = HTTPFields.Element.Name(name) { headers[field] = value }
        }
        if let applicationId { set("X-Parse-Application-Id", applicationId) }
        if let token { set("X-Parse-Session-Token", token) }
        for (name, value) in extra { set(name, value) }
        let text = try rawBody ?? body.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        if text != nil { set("Content-Type", "application/json") }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: text.map { ByteBuffer(string: $0) })
        let bytes = Array(response.body.readableBytesView)
        let json = bytes.isEmpty ? JSONValue.null : try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        return ParseReply(status: Int(response.status.code), json: json, headers: response.headers)
    }

    /// `GET /parse/classes/<name>?…` with each parameter URL-encoded (JSON values encoded as JSON).
    func query(_ className: String, _ parameters: [String: JSONValue] = [:], token: String? = nil,
               headers: [String: String] = [:]) async throws -> ParseReply {
        try await send(.get, "/parse/classes/\(className)" + (try Self.queryString(parameters)), token: token,
                       headers: headers)
    }

    static func queryString(_ parameters: [String: JSONValue]) throws -> String {
        guard !parameters.isEmpty else { return "" }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        var pairs: [String] = []
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            let text = try value.stringValue ?? String(decoding: JSONEncoder().encode(value), as: UTF8.self)
            pairs.append(name + "=" + (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text))
        }
        return "?" + pairs.joined(separator: "&")
    }

    /// Anonymous sign-up/log-in with `authData.anonymous.id`.
    func anonymousUser(_ id: String = UUID().uuidString.lowercased()) async throws -> TestUser {
        let reply = try await send(.post, "/parse/users", body: ["authData": ["anonymous": ["id": .string(id)]]])
        guard let objectId = reply["objectId"]?.stringValue, let token = reply["sessionToken"]?.stringValue else {
            throw TestFailure("anonymous login failed: \(reply.status) \(reply.json)")
        }
        return TestUser(objectId: objectId, sessionToken: token)
    }

    func create(_ className: String, _ fields: JSONValue, as user: TestUser?) async throws -> ParseReply {
        try await send(.post, "/parse/classes/\(className)", body: fields, token: user?.sessionToken)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension JSONValue {
    static func geoPoint(_ latitude: Double, _ longitude: Double) -> JSONValue {
        ["__type": "GeoPoint", "latitude": .number(latitude), "longitude": .number(longitude)]
    }
}
