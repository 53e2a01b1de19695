import Logging

/// The server's state and services, built once from a configuration: the database, the token keys (and
/// the verifier the signaling endpoint uses), the ICE server provider, the Parse REST service and the
/// sweeper.
public final class IntercomBackend: Sendable {
    public let configuration: ServerConfiguration
    public let database: ServerDatabase
    public let clock: ServerClock
    public let keyRing: TokenKeyRing
    public let tokenVerifier: SessionTokenVerifier
    public let iceServers: IceServerProvider
    public let sweeper: ExpirySweeper
    /// Set once the server is bound (the listen-derived `signalURL` needs the real port).
    public let boundPort = BoundPort()
    let parse: ParseService
    let liveQuery: LiveQueryHub
    let signaling: SignalingRooms
    let sessionRevalidator: SessionRevalidator

    /// Opens (creating and migrating) the database and loads or creates the token keys.
    public init(configuration: ServerConfiguration, clock: ServerClock = .system, logger: Logger) async throws {
        self.configuration = configuration
        self.clock = clock
        database = try ServerDatabase(path: configuration.databasePath)
        var keys = configuration.tokenKeys
        if keys.isEmpty {
            let now = clock.milliseconds
            keys = try await database.pool.write { db in try TokenKeyStore.loadOrCreate(db, now: now) }
        }
        keyRing = try await TokenKeyRing(keys: keys)
        tokenVerifier = SessionTokenVerifier(keyRing: keyRing)
        let sessions = SessionLookup(database: database, clock: clock)
        liveQuery = LiveQueryHub(configuration: configuration, logger: logger) { token in
            await sessions.liveQueryAuth(token)
        }
        let files = try FileStore(directory: configuration.resolvedFilesDirectory)
        parse = ParseService(configuration: configuration, database: database, clock: clock, keyRing: keyRing,
                             liveQuery: liveQuery, boundPort: boundPort, files: files, logger: logger)
        iceServers = parse.iceServers
        signaling = SignalingRooms(verifier: tokenVerifier, database: database, clock: clock, iceServers: iceServers,
                                   maxViewers: configuration.maxViewersPerSession, logger: logger)
        sessionRevalidator = SessionRevalidator(hub: liveQuery, database: database, clock: clock, logger: logger)
        sweeper = ExpirySweeper(database: database, clock: clock, heartbeatSeconds: configuration.heartbeatSeconds,
                                intervalSeconds: configuration.sweepIntervalSeconds, logger: logger,
                                callLogRetention: configuration.callLogRetentionDays > 0
                                    ? CallLogRetention(days: configuration.callLogRetentionDays, files: files) : nil)
    }

    /// Peers connected to signaling rooms now (for tests and health figures).
    public var signalingPeerCount: Int {
        get async { await signaling.peerCount }
    }
}
