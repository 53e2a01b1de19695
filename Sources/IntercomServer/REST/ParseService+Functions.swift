/// Cloud functions (`POST /functions/<name>`, parse-wire.md §6). One exists: `viewerToken`.
extension ParseService {
    func function(name: String, _ request: ParseRequest, auth: RequestAuth) async throws -> ParseResponse {
        switch name {
        case "viewerToken":
            let parameters = request.method == .get ? request.parameters : try bodyObject(request)
            return .ok(["result": try await viewerToken(parameters, request, auth: auth)])
        default:
            throw ParseError.scriptFailed("Invalid function: \"\(name)\"")
        }
    }

    /// `viewerToken {sessionID}`: a view-only (`subscriber`) token for the session, minted for one of its
    /// participants (SYSTEM.md §2), who passes it to an extra watcher. Anyone else, and any unknown or
    /// expired session, gets the same 141, so the answer does not reveal which sessions exist.
    private func viewerToken(_ parameters: [String: JSONValue], _ request: ParseRequest, auth: RequestAuth)
        async throws -> JSONValue
    {
        guard let sessionID = parameters["sessionID"]?.stringValue, !sessionID.isEmpty else {
            throw ParseError.scriptFailed("sessionID is required")
        }
        guard let userId = auth.userId else { throw ParseError.scriptFailed("viewerToken requires a logged-in user") }
        let now = clock.milliseconds
        let record = try await database.read { db in try CallSessionStore.fetch(db, sessionID: sessionID, now: now) }
        guard let record, record.isParticipant(userId) else {
            throw ParseError.scriptFailed("Permission denied: not a participant of this session")
        }
        let nowSeconds = now / 1000
        let (token, claims) = try await issuer.issue(sessionID: sessionID, userID: userId, role: .subscriber,
                                                     nowSeconds: nowSeconds)
        return [
            "token": .string(token),
            "role": .string(SessionRole.subscriber.rawValue),
            "sessionID": .string(sessionID),
            "signalURL": .string(signalURL(for: request)),
            "iceServers": .array(iceServers.iceServers(for: userId, nowSeconds: nowSeconds).map(\.json)),
            "expiresAt": ParseTimestamp.typedDate(milliseconds: claims.exp * 1000),
        ]
    }
}
