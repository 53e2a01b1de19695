/// The JavaScript SDK's request form (parse-wire.md §1): always POST, with the real method in `_method`
/// and the headers as `_ApplicationId`, `_JavaScriptKey`, `_SessionToken`… body members. Rewrites such a
/// request into the header form; real headers win over body keys.
enum MethodOverride {
    static func apply(to request: ParseRequest) throws(ParseError) -> ParseRequest {
        guard case .object(var members)? = request.body, members.keys.contains(where: { $0.hasPrefix("_") }) else {
            return request
        }
        var rewritten = request
        var headers = request.headers
        func take(_ key: String) -> String? {
            members.removeValue(forKey: key)?.stringValue
        }
        if let value = take("_ApplicationId"), headers.applicationId == nil { headers.applicationId = value }
        for key in ["_JavaScriptKey", "_ClientKey", "_RESTAPIKey", "_windowsKey"] {
            if let value = take(key) { headers.clientKeys.append(value) }
        }
        if let value = take("_MasterKey"), headers.masterKey == nil { headers.masterKey = value }
        if let value = take("_SessionToken"), headers.sessionToken == nil { headers.sessionToken = value }
        if let value = take("_InstallationId"), headers.installationId == nil { headers.installationId = value }
        for key in ["_ClientVersion", "_context", "_RevocableSession"] { members.removeValue(forKey: key) }
        rewritten.headers = headers
        rewritten.body = .object(members)

        guard request.method == .post, let override = members.removeValue(forKey: "_method") else {
            return rewritten
        }
        guard let name = override.stringValue, let method = ParseRequest.Method(rawValue: name.uppercased()) else {
            throw .invalidJSON("_method must be one of GET, POST, PUT, DELETE")
        }
        rewritten.method = method
        if method == .get {
            rewritten.parameters.merge(members) { _, body in body }
            rewritten.body = nil
        } else {
            rewritten.body = .object(members)
        }
        return rewritten
    }
}
