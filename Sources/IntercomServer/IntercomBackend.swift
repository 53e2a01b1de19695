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
    /// How committed writes reach LiveQuery: this instance's hub, or every instance's over the bus.
    let changes: ChangeFeed
    /// The fleet's bus (PostgreSQL only): changes and signaling between instances; a service of the application.
    let changeBus: PostgresBus?
    let health: BackendHealth
    let signaling: SignalingRooms
    /// The signaling endpoint's way into the rooms (here, or on the instance that owns a call's room).
    let signalingRelay: SignalingRelay
    let sessionRevalidator: SessionRevalidator

    /// Opens (creating and migrating) the database and loads or creates the token keys.
    public init(configuration: ServerConfiguration, clock: ServerClock = .system, logger: Logger) async throws {
        self.configuration = configuration
        self.clock = clock
        database = try await ServerDatabase.open(configuration, logger: logger)
        var keys = configuration.tokenKeys
        if keys.isEmpty {
            let now = clock.milliseconds
            keys = try await database.write { db in try TokenKeyStore.loadOrCreate(db, now: now) }
        }
        keyRing = try await TokenKeyRing(keys: keys)
        tokenVerifier = SessionTokenVerifier(keyRing: keyRing)
        let sessions = SessionLookup(database: database, clock: clock)
        liveQuery = LiveQueryHub(configuration: configuration, logger: logger) { token in
            await sessions.liveQueryAuth(token)
        }
        // On a fleet every instance must serve every file: the bytes live in the shared database.
        let files = database.isShared ? FileStore(database: database)
            : try FileStore(directory: configuration.resolvedFilesDirectory)
        if let settings = database.postgresSettings {
            let bus = PostgresBus(settings: settings, hub: liveQuery, logger: logger)
            changeBus = bus
            changes = .shared(bus)
        } else {
            changeBus = nil
            changes = .local(liveQuery)
        }
        health = BackendHealth(database: database, bus: changeBus)
        parse = ParseService(configuration: configuration, database: database, clock: clock, keyRing: keyRing,
                             changes: changes, boundPort: boundPort, files: files, logger: logger)
        iceServers = parse.iceServers
        signaling = SignalingRooms(verifier: tokenVerifier, database: database, clock: clock, iceServers: iceServers,
                                   maxViewers: configuration.maxViewersPerSession, logger: logger)
        let fleet = changeBus.map { [database, tokenVerifier] bus in
            SignalingRelay.Fleet(bus: bus, database: database, verifier: tokenVerifier)
        }
        signalingRelay = SignalingRelay(rooms: signaling, fleet: fleet, logger: logger)
        changeBus?.attach(signalingRelay)
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
