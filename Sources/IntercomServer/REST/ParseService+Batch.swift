/// `POST /batch` (parse-wire.md §4): sub-requests run in order with the caller's auth; each answers
/// `{"success":…}` or `{"error":{"code":…,"error":…}}`. Paths must carry the mount prefix (else 107).
/// `transaction:true` is accepted but not atomic: each sub-request commits on its own (documented gap).
extension ParseService {
    static let mountPath = "/parse"
    static let maximumBatchRequests = 1000

    func batch(_ request: ParseRequest, auth: RequestAuth) async throws -> ParseResponse {
        let body = try bodyObject(request)
        guard let items = body["requests"]?.arrayValue else { throw ParseError.invalidJSON("requests must be an array") }
        guard items.count <= Self.maximumBatchRequests else {
            throw ParseError.invalidJSON("requests must be at most \(Self.maximumBatchRequests) long")
        }
        var subrequests: [ParseRequest] = []
        for item in items { subrequests.append(try subrequest(item, parent: request)) }
        var results: [JSONValue] = []
        for subrequest in subrequests {
            do {
                let response = try await route(subrequest, auth: auth)
                results.append(["success": response.body])
            } catch {
                var detail = parseError(error).body.objectValue ?? [:]
                detail.removeValue(forKey: "message")
                if detail["error"] == nil { detail["error"] = .string(parseError(error).message) }
                results.append(["error": .object(detail)])
            }
        }
        return .ok(.array(results))
    }

    private func subrequest(_ item: JSONValue, parent: ParseRequest) throws(ParseError) -> ParseRequest {
        guard let methodName = item["method"]?.stringValue,
              let method = ParseRequest.Method(rawValue: methodName.uppercased()),
              let path = item["path"]?.stringValue
        else { throw .invalidJSON("batch request must have a method and a path") }
        let prefix = Self.mountPath + "/"
        guard path.hasPrefix(prefix) else { throw .invalidJSON("cannot route batch path \(path)") }
        let components = path.dropFirst(prefix.count).split(separator: "/").map(String.init)
        guard components.first != "batch", !components.isEmpty else {
            throw .invalidJSON("cannot route batch path \(path)")
        }
        var request = ParseRequest(method: method, path: components, headers: parent.headers, client: parent.client)
        if method == .get {
            request.parameters = item["body"]?.objectValue ?? [:]
        } else {
            request.body = item["body"] ?? .object([:])
        }
        return request
    }
}
