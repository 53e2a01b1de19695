/// Finds who a Parse session token belongs to: used by the REST routes and by LiveQuery.
struct SessionLookup: Sendable {
    let database: ServerDatabase
    let clock: ServerClock

    /// The session and user of `token`; 209 when unknown, 209/expired when past its lifetime.
    func resolve(_ token: String) async throws -> (SessionRecord, UserRecord) {
        let now = clock.milliseconds
        let resolved = try await database.read { db in
            try SessionStore.fetch(db, token: token).map { session in
                (session, try UserStore.fetch(db, objectId: session.userId))
            }
        }
        guard let (session, user) = resolved, let user else { throw ParseError.invalidSessionToken }
        guard session.expiresAt > now else { throw ParseError.expiredSessionToken }
        return (session, user)
    }

    /// LiveQuery's view of a token: who it runs as, or nil when it is not valid (events are then dropped).
    func liveQueryAuth(_ token: String) async -> RequestAuth? {
        guard let (session, user) = try? await resolve(token) else { return nil }
        return RequestAuth(user: user, session: session, sessionToken: token)
    }
}
