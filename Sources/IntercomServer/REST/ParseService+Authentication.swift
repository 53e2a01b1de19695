import IntercomPlatform

extension ParseService {
    /// Resolves who `request` runs as (parse-wire.md §1).
    func authenticate(_ request: ParseRequest) async throws -> RequestAuth {
        let headers = request.headers
        guard headers.applicationId == configuration.applicationId else { throw ParseError.unauthorized }
        var auth = RequestAuth(installationId: headers.installationId)
        if let masterKey = configuration.masterKey, let offered = headers.masterKey,
           ConstantTime.equal(offered, masterKey) {
            // parse-server ≥7: the master key from outside masterKeyIps is refused outright.
            // Issue #14 (7): the client address is what a trusted proxy reports, and a forwarding header from an
            // untrusted peer (an unconfigured same-host proxy) never counts as local.
            guard request.client.mayUseMasterKey(networks: configuration.masterKeyNetworks) else {
                throw ParseError.unauthorized
            }
            auth.isMaster = true
        } else if !configuration.clientKeys.isEmpty {
            let matches = headers.clientKeys.contains { offered in
                configuration.clientKeys.contains { ConstantTime.equal(offered, $0) }
            }
            guard matches else { throw ParseError.unauthorized }
        }
        guard rateLimiter.admit(client: request.client, isMaster: auth.isMaster) else {
            throw ParseError.tooManyRequests
        }
        // /login discards the token it is sent (parse-server); everything else must present a valid one.
        if let token = headers.sessionToken, request.path != ["login"] {
            let (session, user) = try await resolve(sessionToken: token)
            auth.session = session
            auth.user = user
            auth.sessionToken = token
        }
        return auth
    }

    func resolve(sessionToken token: String) async throws -> (SessionRecord, UserRecord) {
        try await SessionLookup(database: database, clock: clock).resolve(token)
    }
}
