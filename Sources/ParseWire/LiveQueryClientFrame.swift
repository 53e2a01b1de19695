/// Client→server LiveQuery messages. `additionalProperties:false` on the server, so only schema keys are sent.
public enum LiveQueryClientFrame {
    public static func connect(
        applicationId: String, clientKey: String?, sessionToken: String?, installationId: String?
    ) -> String {
        var members: [String: JSONValue] = ["op": "connect", "applicationId": .string(applicationId)]
        if let clientKey { members["clientKey"] = .string(clientKey) }
        if let sessionToken { members["sessionToken"] = .string(sessionToken) }
        if let installationId { members["installationId"] = .string(installationId) }
        return JSONValue.object(members).jsonText()
    }

    public static func subscribe(requestId: Int, className: String, where whereClause: JSONValue, sessionToken: String?) -> String {
        var members: [String: JSONValue] = [
            "op": "subscribe", "requestId": .number(Double(requestId)),
            "query": ["className": .string(className), "where": whereClause],
        ]
        if let sessionToken { members["sessionToken"] = .string(sessionToken) }
        return JSONValue.object(members).jsonText()
    }

    public static func unsubscribe(requestId: Int) -> String {
        JSONValue.object(["op": "unsubscribe", "requestId": .number(Double(requestId))]).jsonText()
    }
}
