/// `/users`, `/login`, `/logout`, `/users/me`, `/sessions/me` (parse-wire.md §3).
extension ParseService {
    func signUp(_ request: ParseRequest, auth: RequestAuth) async throws -> ParseResponse {
        var body = try bodyObject(request)
        if let authData = body.removeValue(forKey: "authData") {
            return try await anonymousLogIn(authData, request)
        }
        guard let username = body.removeValue(forKey: "username")?.stringValue, !username.isEmpty else {
            throw ParseError(code: ParseErrorCode.usernameMissing, "bad or missing username")
        }
        guard let password = body.removeValue(forKey: "password")?.stringValue, !password.isEmpty else {
            throw ParseError(code: ParseErrorCode.passwordMissing, "password is required")
        }
        let extra = try userExtraFields(body)
        let hash = await hasher.hashOffloaded(password)
        let now = clock.milliseconds
        let user = UserRecord(objectId: RandomText.objectId(), username: username, passwordHash: hash, anonymousId: nil,
                              extra: extra, createdAt: now, updatedAt: now)
        let token = try await database.write { [configuration] db in
            guard try !UserStore.usernameExists(db, username) else {
                throw ParseError(code: ParseErrorCode.usernameTaken, "Account already exists for this username.")
            }
            try UserStore.insert(db, user)
            return try SessionStore.create(db, userId: user.objectId, installationId: request.headers.installationId,
                                           action: "signup", provider: "password", now: now,
                                           lifetimeMilliseconds: configuration.sessionLengthSeconds * 1000)
        }
        return ParseResponse(
            status: 201,
            body: ["objectId": .string(user.objectId), "createdAt": .string(ParseTimestamp.format(milliseconds: now)),
                   "sessionToken": .string(token)],
            location: location(request, "users", user.objectId))
    }

    /// `authData.anonymous.id`: signs up a new anonymous user (201) or logs the known one in (200).
    private func anonymousLogIn(_ authData: JSONValue, _ request: ParseRequest) async throws -> ParseResponse {
        guard let providers = authData.objectValue, providers.count == 1, let anonymous = providers["anonymous"] else {
            throw ParseError(code: ParseErrorCode.unsupportedService, "This authentication method is unsupported.")
        }
        guard configuration.allowAnonymousUsers else {
            throw ParseError(code: ParseErrorCode.unsupportedService, "This authentication method is unsupported.")
        }
        guard let anonymousId = anonymous["id"]?.stringValue, !anonymousId.isEmpty, anonymousId.utf8.count <= 256 else {
            throw ParseError.invalidJSON("authData.anonymous.id must be a non-empty string")
        }
        let now = clock.milliseconds
        let lifetime = configuration.sessionLengthSeconds * 1000
        let installationId = request.headers.installationId
        let (user, token, created) = try await database.write { db in
            if let existing = try UserStore.fetch(db, anonymousId: anonymousId) {
                let token = try SessionStore.create(db, userId: existing.objectId, installationId: installationId,
                                                    action: "login", provider: "anonymous", now: now,
                                                    lifetimeMilliseconds: lifetime)
                return (existing, token, false)
            }
            let user = UserRecord(objectId: RandomText.objectId(), username: RandomText.alphanumeric(25),
                                  passwordHash: nil, anonymousId: anonymousId, extra: [:], createdAt: now, updatedAt: now)
            try UserStore.insert(db, user)
            let token = try SessionStore.create(db, userId: user.objectId, installationId: installationId,
                                                action: "signup", provider: "anonymous", now: now,
                                                lifetimeMilliseconds: lifetime)
            return (user, token, true)
        }
        let userURL = location(request, "users", user.objectId)
        guard created else {
            var json = user.restJSON
            json["sessionToken"] = .string(token)
            return ParseResponse(status: 200, body: .object(json), location: userURL)
        }
        return ParseResponse(
            status: 201,
            body: ["objectId": .string(user.objectId), "createdAt": .string(ParseTimestamp.format(milliseconds: now)),
                   "username": .string(user.username), "sessionToken": .string(token)],
            location: userURL)
    }

    /// `GET /login?username=&password=` or `POST /login {username, password}`: always a new session.
    func logIn(_ request: ParseRequest) async throws -> ParseResponse {
        let source = request.method == .get ? request.parameters : try bodyObject(request)
        guard let username = source["username"]?.stringValue, !username.isEmpty else {
            throw ParseError(code: ParseErrorCode.usernameMissing, "username/email is required.")
        }
        guard let password = source["password"]?.stringValue, !password.isEmpty else {
            throw ParseError(code: ParseErrorCode.passwordMissing, "password is required.")
        }
        let invalid = ParseError(code: ParseErrorCode.objectNotFound, "Invalid username/password.")
        let candidate = try await database.read { db in try UserStore.fetch(db, username: username) }
        // Unknown users cost a full hash too, so response time does not tell which usernames exist.
        let matches = await hasher.verifyOffloaded(password, against: candidate?.passwordHash ?? unknownUserHash)
        guard let user = candidate, user.passwordHash != nil, matches else { throw invalid }
        let now = clock.milliseconds
        let token = try await database.write { [configuration] db in
            try SessionStore.create(db, userId: user.objectId, installationId: request.headers.installationId,
                                    action: "login", provider: "password", now: now,
                                    lifetimeMilliseconds: configuration.sessionLengthSeconds * 1000)
        }
        var json = user.restJSON
        json["sessionToken"] = .string(token)
        return .ok(.object(json))
    }

    /// `POST /logout`: deletes the session; `{}` also without one, as parse-server.
    func logOut(auth: RequestAuth) async throws -> ParseResponse {
        if let token = auth.sessionToken {
            try await database.write { db in _ = try SessionStore.delete(db, token: token) }
        }
        return .ok([:])
    }

    func me(auth: RequestAuth) throws -> ParseResponse {
        guard let user = auth.user, let token = auth.sessionToken else { throw ParseError.invalidSessionToken }
        var json = user.restJSON
        json["sessionToken"] = .string(token)
        return .ok(.object(json))
    }

    func sessionMe(auth: RequestAuth) throws -> ParseResponse {
        guard let session = auth.session, let token = auth.sessionToken else { throw ParseError.invalidSessionToken }
        return .ok(.object(session.restJSON(token: token)))
    }

    /// `GET /users/<id>`: users are private (parse-server `enforcePrivateUsers`): only oneself or the master.
    func user(objectId: String, auth: RequestAuth) async throws -> ParseResponse {
        guard auth.isMaster || auth.userId == objectId,
              let user = try await database.read({ db in try UserStore.fetch(db, objectId: objectId) })
        else { throw ParseError.objectNotFound }
        return .ok(.object(user.restJSON))
    }

    private func userExtraFields(_ body: [String: JSONValue]) throws(ParseError) -> [String: JSONValue] {
        var extra: [String: JSONValue] = [:]
        for (name, value) in body where name != "ACL" && name != "createdAt" && name != "updatedAt" {
            guard name != "objectId", name != "id" else { throw .invalidKeyName("objectId is an invalid field name.") }
            guard FieldName.isValid(name), name != "sessionToken", name != "authData" else {
                throw .invalidKeyName("Invalid field name: \(name).")
            }
            try FieldOperations.validate(value, field: name)
            extra[name] = value
        }
        return extra
    }

    /// `Location: <scheme>://<host>/parse/<path>` for 201 responses.
    func location(_ request: ParseRequest, _ components: String...) -> String {
        let scheme = request.headers.forwardedProto == "https" ? "https" : "http"
        let host = request.headers.host.flatMap(HostHeader.sanitized) ?? "\(configuration.host):\(configuration.port)"
        return "\(scheme)://\(host)/parse/" + components.joined(separator: "/")
    }
}
