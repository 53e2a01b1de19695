extension ParseService {
    /// The routes below the mount (parse-wire.md §3–§6). Unknown routes answer 404 like express.
    func route(_ request: ParseRequest, auth: RequestAuth) async throws -> ParseResponse {
        switch (request.method, request.path.count, request.path.first) {
        case (.get, 2, "classes"): return try await find(className: request.path[1], request, auth: auth)
        case (.post, 2, "classes"): return try await create(className: request.path[1], request, auth: auth)
        case (.get, 3, "classes"):
            return try await get(className: request.path[1], objectId: request.path[2], request, auth: auth)
        case (.put, 3, "classes"):
            return try await update(className: request.path[1], objectId: request.path[2], request, auth: auth)
        case (.delete, 3, "classes"):
            return try await delete(className: request.path[1], objectId: request.path[2], auth: auth)
        case (.post, 1, "users"): return try await signUp(request, auth: auth)
        case (.get, 2, "users") where request.path[1] == "me": return try me(auth: auth)
        case (.get, 2, "users"): return try await user(objectId: request.path[1], auth: auth)
        case (.get, 1, "login"), (.post, 1, "login"): return try await logIn(request)
        case (.post, 1, "logout"): return try await logOut(auth: auth)
        case (.get, 2, "sessions") where request.path[1] == "me": return try sessionMe(auth: auth)
        case (.post, 1, "batch"): return try await batch(request, auth: auth)
        case (.post, 2, "functions"), (.get, 2, "functions"):
            return try await function(name: request.path[1], request, auth: auth)
        default:
            throw ParseError(plainStatus: 404, "Cannot \(request.method.rawValue) \(request.pathText)")
        }
    }

    /// The request body as a JSON object (parse-server answers a non-object body with 107).
    func bodyObject(_ request: ParseRequest) throws(ParseError) -> [String: JSONValue] {
        switch request.body {
        case nil: return [:]
        case .object(let members)?: return members
        default: throw .invalidJSON("This endpoint requires a JSON object body")
        }
    }
}
