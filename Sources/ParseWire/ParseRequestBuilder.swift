import Foundation

/// Builds every REST request the agent makes (SYSTEM.md §3), with the headers Parse-Swift sends:
/// Application-Id, Client-Key or REST-API-Key, Session-Token (not on login/signup, which discard it),
/// Installation-Id, Request-Id, Client-Version, and `Content-Type: application/json`.
/// The request id is passed in (a fresh lowercase UUID per logical request) so this stays deterministic.
public struct ParseRequestBuilder: Sendable {
    public var settings: ParseClientSettings

    public init(settings: ParseClientSettings) {
        self.settings = settings
    }

    public static let activeUsers = "ActiveUsers"
    public static let activeSessions = "ActiveSessions"

    // MARK: Users

    /// `POST /users {"authData":{"anonymous":{"id":…}}}`: signs up (201) or logs in (200) the anonymous user.
    public func anonymousLogin(anonymousId: String, requestId: UUID) -> ParseRequest {
        let body = AuthDataBody(authData: AuthData(anonymous: .init(id: anonymousId.lowercased())))
        return make(.post, "/users", body: WireJSON.encode(body), requestId: requestId, sendSession: false)
    }

    /// `POST /login {"username","password"}`.
    public func login(username: String, password: String, requestId: UUID) -> ParseRequest {
        let body: JSONValue = ["username": .string(username), "password": .string(password)]
        return make(.post, "/login", body: WireJSON.encode(body), requestId: requestId, sendSession: false)
    }

    /// `GET /users/me`: validates the stored session token.
    public func currentUser(requestId: UUID) -> ParseRequest {
        make(.get, "/users/me", requestId: requestId)
    }

    // MARK: ActiveUsers (presence)

    /// Step 1 of the upsert: `GET /classes/ActiveUsers?where={"userID":me}&limit=10` (more than one row means a crash left stale ones).
    public func findOwnActiveUser(userID: String, requestId: UUID) -> ParseRequest {
        find(Self.activeUsers, where: ["userID": .string(userID)], limit: 10, requestId: requestId)
    }

    /// Step 2 of the upsert: PUT onto the row step 1 found, else POST a new one.
    public func saveActiveUser(_ fields: ActiveUserFields, existingObjectId: String?, requestId: UUID) -> ParseRequest {
        let body = WireJSON.encode(fields)
        if let existingObjectId {
            return make(.put, "/classes/\(Self.activeUsers)/\(Self.pathSegment(existingObjectId))", body: body, requestId: requestId)
        }
        return make(.post, "/classes/\(Self.activeUsers)", body: body, requestId: requestId)
    }

    public func deleteActiveUser(objectId: String, requestId: UUID) -> ParseRequest {
        make(.delete, "/classes/\(Self.activeUsers)/\(Self.pathSegment(objectId))", requestId: requestId)
    }

    /// `$nearSphere` query, sorted by distance by the server, capped by `$maxDistance` in radians.
    public func nearbyActiveUsers(
        center: GeoPoint, withinKilometers: Double, userTitle: String? = nil, limit: Int = 10, requestId: UUID
    ) -> ParseRequest {
        var whereClause: [String: JSONValue] = [
            "userLocation": [
                "$nearSphere": .object([
                    "__type": "GeoPoint", "latitude": .number(center.latitude), "longitude": .number(center.longitude),
                ]),
                "$maxDistance": .number(GeoDistance.radians(kilometers: withinKilometers)),
            ]
        ]
        if let userTitle { whereClause["userTitle"] = .string(userTitle) }
        return find(Self.activeUsers, where: .object(whereClause), limit: limit, requestId: requestId)
    }

    // MARK: ActiveSessions (calls)

    /// The poll behind LiveQuery: rows addressed to me, oldest first.
    public func incomingCalls(receiverID: String, limit: Int = 100, requestId: UUID) -> ParseRequest {
        find(Self.activeSessions, where: ["receiverID": .string(receiverID)], order: "createdAt", limit: limit, requestId: requestId)
    }

    public func createCall(_ row: NewCallRow, requestId: UUID) -> ParseRequest {
        make(.post, "/classes/\(Self.activeSessions)", body: WireJSON.encode(row), requestId: requestId)
    }

    public func deleteCall(objectId: String, requestId: UUID) -> ParseRequest {
        make(.delete, "/classes/\(Self.activeSessions)/\(Self.pathSegment(objectId))", requestId: requestId)
    }

    /// `POST /functions/viewerToken {"sessionID":…}` (SYSTEM.md §2).
    public func viewerToken(sessionID: String, requestId: UUID) -> ParseRequest {
        let body: JSONValue = ["sessionID": .string(sessionID)]
        return make(.post, "/functions/viewerToken", body: WireJSON.encode(body), requestId: requestId)
    }

    // MARK: Visitor log (issue #19)

    /// `POST /files/<name>` with the JPEG itself as the body (parse-server `FilesRouter`): the answer is
    /// `ParseFile`, whose `name` is the server's unguessable stored name.
    public func uploadJPEG(name: String, bytes: [UInt8], requestId: UUID) -> ParseRequest {
        var request = make(.post, "/files/\(Self.pathSegment(name))", requestId: requestId)
        request.headers = request.headers.map { $0.name == "Content-Type" ? .init("Content-Type", "image/jpeg") : $0 }
        request.body = bytes
        return request
    }

    public func createCallLog(_ row: CallLogRow, requestId: UUID) -> ParseRequest {
        make(.post, "/classes/\(CallLogRow.className)", body: WireJSON.encode(row), requestId: requestId)
    }

    // MARK: Assembly

    public func find(
        _ className: String, where whereClause: JSONValue, order: String? = nil, limit: Int? = nil, requestId: UUID
    ) -> ParseRequest {
        var items = [ParseRequest.QueryItem("where", whereClause.jsonText())]
        if let order { items.append(.init("order", order)) }
        if let limit { items.append(.init("limit", String(limit))) }
        var request = make(.get, "/classes/\(Self.pathSegment(className))", requestId: requestId)
        request.queryItems = items
        return request
    }

    /// The header set, in the order Parse-Swift's `API.getHeaders` builds it.
    public func headers(requestId: UUID, sendSession: Bool = true) -> [ParseRequest.Header] {
        var headers = [ParseRequest.Header("X-Parse-Application-Id", settings.applicationId)]
        switch settings.key {
        case .none: break
        case .client(let key): headers.append(.init("X-Parse-Client-Key", key))
        case .restAPI(let key): headers.append(.init("X-Parse-REST-API-Key", key))
        }
        headers.append(.init("X-Parse-Client-Version", settings.clientVersion))
        headers.append(.init("X-Parse-Request-Id", requestId.uuidString.lowercased()))
        headers.append(.init("X-Parse-Installation-Id", settings.installationId))
        if sendSession, let token = settings.sessionToken {
            headers.append(.init("X-Parse-Session-Token", token))
        }
        headers.append(.init("Content-Type", "application/json"))
        return headers
    }

    private func make(
        _ method: ParseRequest.Method, _ route: String, body: Data? = nil, requestId: UUID, sendSession: Bool = true
    ) -> ParseRequest {
        ParseRequest(
            method: method, path: settings.mountPath + route,
            headers: headers(requestId: requestId, sendSession: sendSession), body: body.map { Array($0) })
    }

    /// Object ids and class names come from the server; encode them so a hostile id cannot change the route.
    static func pathSegment(_ text: String) -> String { ParseRequest.percentEncode(text) }

    private struct AuthDataBody: Encodable { var authData: AuthData }
}

/// The upsert's decision between the two requests, from the response to `findOwnActiveUser`.
public enum ActiveUserUpsert {
    /// The objectId to PUT onto, or nil to POST. Extra rows (left by a crash) are returned for deletion.
    public static func plan(_ found: QueryResults<ActiveUserRow>) -> (existing: String?, stale: [String]) {
        let ids = found.results.map(\.objectId)
        return (ids.first, Array(ids.dropFirst()))
    }
}
