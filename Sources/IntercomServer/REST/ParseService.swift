import Logging

/// The Parse REST subset, transport-free: takes a `ParseRequest`, answers a `ParseResponse`. The HTTP
/// adapter and `/batch` both call it. Order per request, as parse-server's middleware chain: app id and
/// keys (403) → master key peer check (403) → rate limit (429) → session token (209) → idempotency (159)
/// → route.
final class ParseService: Sendable {
    let configuration: ServerConfiguration
    let database: ServerDatabase
    let clock: ServerClock
    let hasher: PasswordHasher
    let minter: CallSessionMinter
    let issuer: SessionTokenIssuer
    let iceServers: IceServerProvider
    let rateLimiter: RateLimiter
    let logger: Logger
    /// Receives every committed class write (LiveQuery events, on every instance of a fleet).
    let changes: ChangeFeed
    /// Where the server listens, for the listen-derived `signalURL`.
    let boundPort: BoundPort
    /// Parse Files (snapshots), on disk beside the database.
    let files: FileStore
    /// A hash no password matches, verified against for unknown usernames (see `logIn`).
    let unknownUserHash: String

    init(configuration: ServerConfiguration, database: ServerDatabase, clock: ServerClock, keyRing: TokenKeyRing,
         changes: ChangeFeed, boundPort: BoundPort, files: FileStore, logger: Logger) {
        self.files = files
        self.configuration = configuration
        self.boundPort = boundPort
        self.changes = changes
        self.database = database
        self.clock = clock
        self.logger = logger
        hasher = PasswordHasher(iterations: configuration.passwordIterations)
        unknownUserHash = hasher.unmatchableHash()
        let lifetime = min(max(configuration.tokenLifetimeSeconds, 1), ServerConfiguration.tokenLifetimeLimitSeconds)
        issuer = SessionTokenIssuer(keyRing: keyRing, lifetimeSeconds: lifetime)
        iceServers = IceServerProvider(stunURLs: configuration.stunURLs, turnURLs: configuration.turnURLs,
                                       turnSecret: configuration.turnSecret, lifetimeSeconds: lifetime)
        minter = CallSessionMinter(issuer: issuer, iceServers: iceServers,
                                   ringTimeToLiveMilliseconds: configuration.ringTimeToLiveSeconds * 1000)
        rateLimiter = RateLimiter(configuration: configuration.rateLimit, clock: clock)
    }

    func handle(_ incoming: ParseRequest) async -> ParseResponse {
        if incoming.path == ["health"] { return .ok(["status": "ok"]) }
        do {
            let request = try MethodOverride.apply(to: incoming)
            let auth = try await authenticate(request)
            if let context = request.headers.cloudContext, (try? JSONCoding.decode(context))?.objectValue == nil {
                throw ParseError.invalidJSON("Invalid object for context.")
            }
            try await checkIdempotency(request)
            return try await route(request, auth: auth)
        } catch {
            return .failure(parseError(error))
        }
    }

    /// Maps any error onto Parse's envelope; database failures are logged and answered 500/1.
    func parseError(_ error: any Error) -> ParseError {
        if let error = error as? ParseError { return error }
        if error is QueryTimeout { return ParseError(code: ParseErrorCode.timeout, QueryTimeout.message) }
        if case StorageError.uniqueViolation = error {
            return ParseError(code: ParseErrorCode.duplicateValue,
                              "A duplicate value for a field with unique values was provided")
        }
        logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
        return .internalFailure
    }

    /// `X-Parse-Request-Id` (parse-wire.md §7): repeats of a POST/PUT to classes, users or functions within
    /// the TTL are refused with 159.
    private func checkIdempotency(_ request: ParseRequest) async throws {
        guard configuration.idempotencyTTLSeconds > 0, let requestId = request.headers.requestId,
              request.method == .post || request.method == .put,
              let root = request.path.first, ["classes", "users", "functions", "installations"].contains(root)
        else { return }
        let now = clock.milliseconds
        let ttl = configuration.idempotencyTTLSeconds * 1000
        let fresh = try await database.write { db in
            try IdempotencyStore.record(db, requestId: requestId, now: now, ttlMilliseconds: ttl)
        }
        guard fresh else { throw ParseError.duplicateRequest }
    }
}
