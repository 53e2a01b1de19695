import Foundation
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import IntercomTestSupport
import Logging
import ParseClient
import ParseWire
import ServerTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// The agent's backend services (login, presence, call intake) against a real `intercom-server`.
@Suite(.timeLimit(.minutes(3))) struct AgentBackendTests {
    static let nearGate = try! GeoPoint(latitude: 52.53, longitude: 13.40)
    static let gate = try! GeoPoint(latitude: 52.5200, longitude: 13.4050)

    /// A device's state directory and a session on it.
    struct Device {
        let directory: TemporaryDirectory
        let store: StateStore
        let status = AgentStatusBoard(title: "Gate 3")

        init() throws {
            directory = try TemporaryDirectory(prefix: "agent-state")
            store = StateStore(directory: directory.path)
            _ = try store.prepare()
        }

        func session(_ server: RunningServer, serverURL: String? = nil, transport: (any ParseHTTPTransport)? = nil)
            throws -> BackendSession
        {
            let (identity, _, _) = try store.loadOrCreateIdentity()
            return BackendSession(
                serverURL: serverURL ?? server.serverURL, applicationId: "intercom", clientKey: nil, login: .anonymous,
                requestTimeout: .seconds(2), identity: identity, store: store, logger: RunningServer.logger,
                transport: transport ?? AsyncHTTPParseTransport(),
                policy: RetryPolicy(maxAttempts: 1))
        }

        func intake(_ session: BackendSession, liveQueryURL: String, schedule: PollSchedule) throws -> CallIntakeService {
            let identity = try store.loadOrCreateIdentity().0
            return CallIntakeService(
                session: session, liveQueryURL: liveQueryURL, applicationId: "intercom", clientKey: nil,
                installationId: identity.installationID, schedule: schedule, status: status,
                logger: RunningServer.logger)
        }

        func presence(_ session: BackendSession, heartbeat: Duration = .seconds(60)) -> PresenceService {
            PresenceService(session: session, heartbeat: heartbeat, readiness: nil, status: status,
                            logger: RunningServer.logger) { userID in
                ActiveUserFields(userID: userID, userTitle: "Gate 3", userLocation: AgentBackendTests.gate,
                                 deviceKind: "intercom", answerMode: "auto", capabilities: ["audio", "video"])
            }
        }
    }

    /// Runs `services` in a group until `body` returns, then shuts them down gracefully (as SIGTERM would).
    static func running<Value: Sendable>(_ services: [any Service], _ body: @Sendable () async throws -> Value)
        async throws -> Value
    {
        let group = ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) }, gracefulShutdownSignals: [], logger: RunningServer.logger))
        return try await withThrowingTaskGroup(of: Value?.self) { tasks in
            tasks.addTask {
                try await group.run()
                return nil
            }
            let value = try await body()
            await group.triggerGracefulShutdown()
            while let _ = try await tasks.next() {}
            return value
        }
    }

    static func nearby(_ client: ParseRESTClient) async throws -> [ActiveUserRow] {
        try await client.send(QueryResults<ActiveUserRow>.self) {
            $0.nearbyActiveUsers(center: AgentBackendTests.nearGate, withinKilometers: 10, requestId: $1)
        }.results
    }

    /// Polls `condition` every 20 ms until it holds or `seconds` pass; returns the time it took.
    @discardableResult
    static func eventually(within seconds: Double, _ what: String, _ condition: @Sendable () async throws -> Bool)
        async throws -> Duration
    {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .milliseconds(Int(seconds * 1000)) {
            if try await condition() { return ContinuousClock.now - start }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("\(what): not within \(seconds) s")
    }

    @Test func aDeviceShowsUpNearbyWithinTwoSecondsAndKeepsItsUserIDAcrossRestarts() async throws {
        try await RunningServer.with { server in
            let device = try Device()
            let (viewer, _) = try await server.anonymousClient()
            let firstSession = try device.session(server)
            let presence = device.presence(firstSession)
            let userID = try await Self.running([presence]) {
                let took = try await Self.eventually(within: 2, "device listed nearby") {
                    try await Self.nearby(viewer).contains { $0.userTitle == "Gate 3" }
                }
                let row = try #require(try await Self.nearby(viewer).first { $0.userTitle == "Gate 3" })
                #expect(row.userLocation == Self.gate)
                #expect(row.deviceKind == "intercom")
                #expect(took < .seconds(2))
                return row.userID
            }
            // Graceful shutdown deleted the row.
            #expect(try await Self.nearby(viewer).isEmpty)

            // A restart (new process, same state directory) logs in as the same user.
            let second = try device.session(server)
            let secondID = try await second.ensureLoggedIn()
            #expect(secondID == userID)
            let saved = try device.store.loadOrCreateIdentity().0
            #expect(saved.userID == userID)
        }
    }

    @Test func anInvalidatedSessionTriggersExactlyOneRelogin() async throws {
        try await RunningServer.with { server in
            let device = try Device()
            let session = try device.session(server)
            let userID = try await session.ensureLoggedIn()
            // Log the session out behind the agent's back: its next request gets 209.
            let token = try #require(await session.client.sessionToken)
            _ = try await session.client.send(EmptyResponse.self) { builder, id in
                var request = builder.find("ActiveUsers", where: [:], requestId: id)
                request.method = .post
                request.path = builder.settings.mountPath + "/logout"
                request.queryItems = []
                return request
            }
            let rows = try await session.client.send(QueryResults<ActiveUserRow>.self) {
                $0.findOwnActiveUser(userID: userID, requestId: $1)
            }
            #expect(rows.results.isEmpty)
            let renewed = try #require(await session.client.sessionToken)
            #expect(renewed != token)
            #expect(await session.userID == userID)
        }
    }

    @Test func aCallArrivesThroughLiveQueryExactlyOnceAndItsRowIsDeleted() async throws {
        try await RunningServer.with { server in
            let device = try Device()
            let session = try device.session(server)
            let deviceID = try await session.ensureLoggedIn()
            // Fast safety polls as well, so both paths see the row: it must still arrive once.
            let intake = try device.intake(session, liveQueryURL: server.liveQueryURL,
                                           schedule: PollSchedule(fallbackSeconds: 0.2, safetySeconds: 0.2, jitterFraction: 0))
            let (callerClient, caller) = try await server.anonymousClient()
            try await Self.running([intake]) {
                try await Self.eventually(within: 5, "LiveQuery subscribed") { await device.status.liveQueryUp }
                let row = NewCallRow(callerID: caller.objectId, callerTitle: "Visitor", receiverID: deviceID)
                let sent = ContinuousClock.now
                let created = try await callerClient.send(CallCreateResponse.self) { $0.createCall(row, requestId: $1) }
                var calls = intake.calls.makeAsyncIterator()
                let delivered = try #require(await calls.next())
                let latency = ContinuousClock.now - sent
                #expect(delivered.objectId == created.objectId)
                #expect(delivered.publisherToken == created.publisherToken)
                #expect(latency < .seconds(1), "LiveQuery delivery took \(latency)")
                // Several polls later, still one delivery, and the row is gone from the server.
                try await Task.sleep(for: .milliseconds(700))
                #expect(await device.status.callsReceived == 1)
                let left = try await callerClient.send(QueryResults<ActiveSessionRow>.self) {
                    $0.find("ActiveSessions", where: [:], requestId: $1)
                }
                #expect(left.results.isEmpty)
            }
        }
    }

    @Test func withLiveQueryBlockedACallStillArrivesByPolling() async throws {
        try await RunningServer.with { server in
            let device = try Device()
            let session = try device.session(server)
            let deviceID = try await session.ensureLoggedIn()
            let intake = try device.intake(session, liveQueryURL: "ws://127.0.0.1:9/parse",
                                           schedule: PollSchedule(fallbackSeconds: 0.5, safetySeconds: 60, jitterFraction: 0.25))
            let (callerClient, caller) = try await server.anonymousClient()
            try await Self.running([intake]) {
                let row = NewCallRow(callerID: caller.objectId, callerTitle: "Visitor", receiverID: deviceID)
                let created = try await callerClient.send(CallCreateResponse.self) { $0.createCall(row, requestId: $1) }
                var calls = intake.calls.makeAsyncIterator()
                let delivered = try #require(await calls.next())
                #expect(delivered.objectId == created.objectId)
                #expect(await device.status.liveQueryUp == false)
            }
        }
    }

    @Test func afterAnOutageTheDeviceRegistersAgainWithinTenSecondsAtUnderOneRequestASecond() async throws {
        let directory = try TemporaryDirectory(prefix: "outage")
        let database = directory.path("server.sqlite")
        let device = try Device()
        let counter = CountingTransport()
        let port = try await RunningServer.with(database: database) { server in
            let session = try device.session(server, transport: counter)
            _ = try await session.ensureLoggedIn()
            return server.port
        }
        let session = try device.session(RunningServer.placeholder(port), transport: counter)
        let presence = device.presence(session, heartbeat: .seconds(1))
        try await Self.running([presence]) {
            // The backend is down: the agent keeps trying without flooding it.
            // The backend issue's fault test: the server is gone for 30 s.
            let outage = Duration.seconds(30)
            let before = counter.attempts
            try await Task.sleep(for: outage)
            let tried = counter.attempts - before
            #expect(tried >= 2, "it keeps retrying")
            #expect(tried <= 30, "at most one request a second during the outage, got \(tried)")
            #expect(await device.status.registered == false)
            try await RunningServer.with(port: port, database: database) { _ in
                let took = try await Self.eventually(within: 10, "registered again") { await device.status.registered }
                #expect(took < .seconds(10))
            }
        }
    }
}

/// Counts HTTP attempts on their way to the real transport.
final class CountingTransport: ParseHTTPTransport {
    private let count = Mutex(0)
    private let real = AsyncHTTPParseTransport()

    var attempts: Int { count.withLock { $0 } }

    func execute(_ request: ParseRequest, baseURL: String, timeout: Duration) async throws -> ParseHTTPResponse {
        count.withLock { $0 += 1 }
        return try await real.execute(request, baseURL: baseURL, timeout: timeout)
    }
}
