/// A client→server LiveQuery message as the server reads it, validated like parse-server's `RequestSchema.js`
/// (`additionalProperties:false`; `fields` was renamed to `keys` in 7.0.0 and is refused).
public enum LiveQueryRequest: Sendable, Equatable {
    case connect(LiveQueryCredentials)
    /// `subscribe` and `update` (re-subscribe under the same requestId) carry the same content.
    case subscribe(LiveQueryQuery, replacing: Bool)
    case unsubscribe(requestId: Int)

    /// Schema failures: parse-server answers code 1 with `reconnect:true`; an unknown op is code 3.
    public struct Rejection: Error, Equatable {
        public let code: Int
        public let message: String
        public let requestId: Int?
    }

    private static let credentialKeys: Set<String> = [
        "applicationId", "javascriptKey", "masterKey", "clientKey", "windowsKey", "restAPIKey", "sessionToken",
        "installationId",
    ]

    public static func parse(_ text: String) throws(Rejection) -> LiveQueryRequest {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text.utf8, limit: LiveQueryServerFrame.maxFrameBytes)
        } catch {
            throw Rejection(code: 1, message: "Invalid JSON: \(error)", requestId: nil)
        }
        guard let members = value.objectValue else { throw schema("Invalid type: expected object") }
        guard let op = members["op"]?.stringValue else { throw schema("Missing required property: op") }
        switch op {
        case "connect":
            try allowOnly(members, credentialKeys.union(["op"]), requestId: nil)
            guard let applicationId = members["applicationId"]?.stringValue else {
                throw schema("Missing required property: applicationId")
            }
            var credentials = LiveQueryCredentials(applicationId: applicationId)
            credentials.clientKeys = ["javascriptKey", "clientKey", "windowsKey", "restAPIKey"]
                .compactMap { members[$0]?.stringValue }
            credentials.masterKey = members["masterKey"]?.stringValue
            credentials.sessionToken = members["sessionToken"]?.stringValue
            credentials.installationId = members["installationId"]?.stringValue
            return .connect(credentials)
        case "subscribe", "update":
            let requestId = try requestId(members)
            try allowOnly(members, ["op", "requestId", "query", "sessionToken"], requestId: requestId)
            guard let query = members["query"]?.objectValue else {
                throw schema("Missing required property: query", requestId: requestId)
            }
            try allowOnly(query, ["className", "where", "keys", "watch"], requestId: requestId)
            guard let className = query["className"]?.stringValue else {
                throw schema("Missing required property: className", requestId: requestId)
            }
            let whereClause = query["where"] ?? .object([:])
            guard whereClause.objectValue != nil else { throw schema("Invalid type: where", requestId: requestId) }
            return .subscribe(
                LiveQueryQuery(
                    requestId: requestId, className: className, whereClause: whereClause,
                    keys: try strings(query["keys"], "keys", requestId), watch: try strings(query["watch"], "watch", requestId),
                    sessionToken: members["sessionToken"]?.stringValue),
                replacing: op == "update")
        case "unsubscribe":
            let requestId = try requestId(members)
            try allowOnly(members, ["op", "requestId"], requestId: requestId)
            return .unsubscribe(requestId: requestId)
        default:
            throw Rejection(code: 3, message: "Get unknown operation", requestId: nil)
        }
    }

    private static func schema(_ message: String, requestId: Int? = nil) -> Rejection {
        Rejection(code: 1, message: message, requestId: requestId)
    }

    private static func allowOnly(_ members: [String: JSONValue], _ allowed: Set<String>, requestId: Int?)
        throws(Rejection)
    {
        if let extra = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw schema("Additional properties not allowed: \(extra)", requestId: requestId)
        }
    }

    private static func requestId(_ members: [String: JSONValue]) throws(Rejection) -> Int {
        guard case .number(let number)? = members["requestId"], number >= 0, number.rounded() == number,
              number < 9.0e15
        else { throw schema("Missing or invalid property: requestId") }
        return Int(number)
    }

    private static func strings(_ value: JSONValue?, _ name: String, _ requestId: Int) throws(Rejection) -> [String]? {
        guard let value else { return nil }
        guard let items = value.arrayValue else { throw schema("Invalid type: \(name)", requestId: requestId) }
        var names: [String] = []
        for item in items {
            guard let name = item.stringValue else { throw schema("Invalid type: \(name)", requestId: requestId) }
            names.append(name)
        }
        return names
    }
}

/// The keys and token of a LiveQuery `connect`.
public struct LiveQueryCredentials: Sendable, Equatable {
    public var applicationId: String
    public var clientKeys: [String] = []
    public var masterKey: String?
    public var sessionToken: String?
    public var installationId: String?
}

/// One `subscribe`'s query.
public struct LiveQueryQuery: Sendable, Equatable {
    public let requestId: Int
    public let className: String
    public let whereClause: JSONValue
    public let keys: [String]?
    public let watch: [String]?
    public let sessionToken: String?
}
