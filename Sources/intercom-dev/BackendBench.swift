import Foundation
import HummingbirdWSClient
import IntercomAgent
import IntercomPlatform
import IntercomServer
import Logging
import ParseClient
import ParseWire
import ServiceLifecycle
import Synchronization

/// The moving parts of `intercom-dev bench-backend`: embedded servers on free loopback ports (one on
/// SQLite, or several sharing one PostgreSQL database as a fleet does) and the agent's own client code
/// talking to them.
final class BackendBench: Sendable {
    let ports: [Int]
    let masterKey: String
    /// Instance 0's database (on a fleet, the one all instances share): the table fill writes through it.
    let database: ServerDatabase
    private let directory: String
    private let serverTasks: [Task<Void, any Error>]

    static let logger: Logger = {
        var logger = Logger(label: "bench-backend")
        logger.logLevel = .error
        return logger
    }()

    /// Instance 0's URLs.
    var serverURL: String { serverURL(0) }
    var liveQueryURL: String { liveQueryURL(0) }

    func serverURL(_ instance: Int) -> String { "http://127.0.0.1:\(ports[instance % ports.count])/parse" }
    func liveQueryURL(_ instance: Int) -> String { "ws://127.0.0.1:\(ports[instance % ports.count])/parse" }

    private init(ports: [Int], masterKey: String, database: ServerDatabase, directory: String,
                 serverTasks: [Task<Void, any Error>]) {
        self.ports = ports
        self.masterKey = masterKey
        self.database = database
        self.directory = directory
        self.serverTasks = serverTasks
    }

    /// Starts `instances` servers: on a fresh SQLite file (one instance), or on `databaseURL`.
    static func start(databaseURL: String?, instances: Int) async throws -> BackendBench {
        let directory = NSTemporaryDirectory() + "intercom-bench-backend-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var configuration = ServerConfiguration()
        configuration.databasePath = directory + "/server.sqlite"
        configuration.databaseURL = databaseURL
        configuration.filesDirectory = directory + "/files"
        configuration.port = 0
        configuration.rateLimit.enabled = false
        configuration.masterKey = UUID().uuidString
        configuration.passwordIterations = 10
        var ports: [Int] = []
        var tasks: [Task<Void, any Error>] = []
        var databases: [ServerDatabase] = []
        for _ in 0..<instances {
            let backend = try await IntercomBackend(configuration: configuration, logger: logger)
            let (started, portSink) = AsyncStream<Int>.makeStream()
            let application = ServerApplication.make(backend: backend, logger: logger) { portSink.yield($0 ?? 0) }
            tasks.append(Task { try await application.run() })
            var iterator = started.makeAsyncIterator()
            guard let port = await iterator.next() else { throw BenchFailure("an embedded server did not start") }
            ports.append(port)
            databases.append(backend.database)
        }
        // On a fleet, each instance's bus must be listening before events are published.
        if databaseURL != nil { try await Task.sleep(for: .seconds(1)) }
        return BackendBench(ports: ports, masterKey: configuration.masterKey ?? "", database: databases[0],
                            directory: directory, serverTasks: tasks)
    }

    func stop() {
        for task in serverTasks { task.cancel() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    func client(instance: Int = 0) -> ParseRESTClient {
        ParseRESTClient(
            serverURL: serverURL(instance),
            settings: ParseClientSettings(applicationId: "intercom", key: .none,
                                          installationId: UUID().uuidString.lowercased(), clientVersion: "bench"),
            policy: RetryPolicy(maxAttempts: 3), attemptTimeout: .seconds(30), logger: Self.logger)
    }

    func anonymousUser(instance: Int = 0) async throws -> (ParseRESTClient, UserResponse) {
        let client = client(instance: instance)
        let user = try await client.send(UserResponse.self) {
            $0.anonymousLogin(anonymousId: UUID().uuidString.lowercased(), requestId: $1)
        }
        await client.setSessionToken(user.sessionToken)
        return (client, user)
    }

    // MARK: Call delivery

    func callDelivery(calls: Int) async throws -> LatencyFigures {
        let stateDirectory = directory + "/agent"
        let store = StateStore(directory: stateDirectory)
        _ = try store.prepare()
        let (identity, _, _) = try store.loadOrCreateIdentity()
        let session = BackendSession(
            serverURL: serverURL, applicationId: "intercom", clientKey: nil, login: .anonymous,
            requestTimeout: .seconds(10), identity: identity, store: store, logger: Self.logger)
        let deviceID = try await session.ensureLoggedIn()
        let status = AgentStatusBoard(title: "bench")
        let intake = CallIntakeService(
            session: session, liveQueryURL: liveQueryURL, applicationId: "intercom", clientKey: nil,
            installationId: identity.installationID, status: status, logger: Self.logger)
        let group = ServiceGroup(configuration: .init(services: [.init(service: intake)], gracefulShutdownSignals: [],
                                                      logger: Self.logger))
        let running = Task { try await group.run() }
        defer { running.cancel() }
        let waitStart = ContinuousClock.now
        while !(await status.liveQueryUp) {
            guard ContinuousClock.now - waitStart < .seconds(10) else { throw BenchFailure("LiveQuery never came up") }
            try await Task.sleep(for: .milliseconds(10))
        }
        // On a fleet the caller writes through the last instance; the device listens on the first.
        let (caller, callerUser) = try await anonymousUser(instance: ports.count - 1)
        var delivered = intake.calls.makeAsyncIterator()
        var samples: [Duration] = []
        for index in 0..<calls {
            let row = NewCallRow(callerID: callerUser.objectId, callerTitle: "bench \(index)", receiverID: deviceID)
            let start = ContinuousClock.now
            let created = try await caller.send(CallCreateResponse.self) { $0.createCall(row, requestId: $1) }
            guard let call = await delivered.next() else { throw BenchFailure("the intake stopped") }
            samples.append(ContinuousClock.now - start)
            guard call.objectId == created.objectId else { throw BenchFailure("calls arrived out of order") }
        }
        await group.triggerGracefulShutdown()
        return LatencyFigures(samples)
    }

    // MARK: Geo queries

    private let inserted = Mutex<[String]>([])

    /// Fills `ActiveUsers` up to `tableSize` rows spread over about 600 km × 600 km, 10,000 per transaction
    /// straight into the database (`insertBenchmarkDevices`: the server's own insert, without REST), and
    /// returns their object ids.
    func fill(tableSize: Int) async throws -> [String] {
        var random = SystemRandomNumberGenerator()
        var lastReport = ContinuousClock.now
        while inserted.withLock({ $0.count }) < tableSize {
            let start = inserted.withLock { $0.count }
            let count = min(10_000, tableSize - start)
            let rows = (start..<start + count).map { index in
                BenchmarkDeviceRow(userID: "bench-\(index)", title: "Device \(index)",
                                   latitude: Double.random(in: 47...53, using: &random),
                                   longitude: Double.random(in: 6...14, using: &random))
            }
            let ids = try await database.insertBenchmarkDevices(rows)
            inserted.withLock { $0 += ids }
            if ContinuousClock.now - lastReport > .seconds(10) {
                lastReport = .now
                BenchOutput.line("  filling ActiveUsers: \(start + count) of \(tableSize) rows")
            }
        }
        return inserted.withLock { Array($0.prefix(tableSize)) }
    }

    func geoQueries(tableSize: Int, queries: Int) async throws -> LatencyFigures {
        _ = try await fill(tableSize: tableSize)
        let clients = ports.indices.map { client(instance: $0) }
        var random = SystemRandomNumberGenerator()
        var samples: [Duration] = []
        for index in 0..<queries {
            let center = try ParseWire.GeoPoint(latitude: Double.random(in: 47.5...52.5, using: &random),
                                  longitude: Double.random(in: 6.5...13.5, using: &random))
            let start = ContinuousClock.now
            _ = try await clients[index % clients.count].send(QueryResults<ActiveUserRow>.self) {
                $0.nearbyActiveUsers(center: center, withinKilometers: 10, limit: 100, requestId: $1)
            }
            samples.append(ContinuousClock.now - start)
        }
        return LatencyFigures(samples)
    }

    // MARK: Heartbeats

    /// `devices` rows re-saved (a new `heartbeat` value, what a device's heartbeat PUT does) by `concurrency`
    /// workers spread over the instances for `seconds`: saves per second, and each save's latency.
    func heartbeats(devices: Int, seconds: Int, concurrency: Int) async throws -> (perSecond: Double, LatencyFigures) {
        let ids = try await fill(tableSize: devices)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let masterKey = self.masterKey
        let started = ContinuousClock.now
        let samples = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for worker in 0..<concurrency {
                let client = client(instance: worker)
                group.addTask {
                    var samples: [Duration] = []
                    var index = worker
                    while ContinuousClock.now < deadline {
                        let objectId = ids[index % ids.count]
                        index += concurrency
                        let body = Array(JSONValue.object(["heartbeat": .number(Double(index))]).jsonText().utf8)
                        let start = ContinuousClock.now
                        _ = try await client.send(JSONValue.self) { builder, id in
                            var request = ParseRequest(
                                method: .put, path: builder.settings.mountPath + "/classes/ActiveUsers/" + objectId,
                                headers: builder.headers(requestId: id), body: body)
                            request.headers.append(.init("X-Parse-Master-Key", masterKey))
                            return request
                        }
                        samples.append(ContinuousClock.now - start)
                    }
                    return samples
                }
            }
            var all: [Duration] = []
            for try await part in group { all += part }
            return all
        }
        let elapsed = ContinuousClock.now - started
        let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return (Double(samples.count) / elapsedSeconds, LatencyFigures(samples))
    }

    // MARK: Fan-out

    /// `subscribers` sockets (in a child process, `FanOutSubscribersCommand`; split over the instances) subscribe
    /// to `deviceKind = "fanout"`; each of `events` rows written through the first instance must reach all.
    func fanOut(subscribers: Int, events: Int) async throws -> LatencyFigures {
        let child = try FanOutSubscriberProcess(urls: ports.indices.map { liveQueryURL($0) }, count: subscribers)
        defer { child.stop() }
        var lines = child.lines.makeAsyncIterator()
        while true {
            guard let line = await lines.next() else { throw BenchFailure("the subscriber process ended before subscribing") }
            if line == "ready" { break }
            if line.hasPrefix("failed") { throw BenchFailure(line) }
            BenchOutput.line("  \(line) of \(subscribers) sockets")
        }
        let admin = client()
        let masterKey = self.masterKey
        var samples: [Duration] = []
        for event in 0..<events {
            let body = Array(JSONValue.object([
                // userID is unique: a second fan-out run (another socket count) writes new ones.
                "userID": .string("fanout-\(subscribers)-\(event)"), "userTitle": .string("fanout-\(event)"),
                "userLocation": ["__type": "GeoPoint", "latitude": 50, "longitude": 10], "deviceKind": "fanout",
            ]).jsonText().utf8)
            child.sent(event: event, at: BootClock.nanoseconds())
            _ = try await admin.send(CreateResponse.self) { builder, id in
                var request = ParseRequest(method: .post, path: builder.settings.mountPath + "/classes/ActiveUsers",
                                           headers: builder.headers(requestId: id), body: body)
                request.headers.append(.init("X-Parse-Master-Key", masterKey))
                return request
            }
            // The child answers within 30 s of `sent`: every socket's latency, or how many got it.
            guard let line = await lines.next() else { throw BenchFailure("the subscriber process ended") }
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, parts[0] == "event", Int(parts[1]) == event else {
                throw BenchFailure("event \(event): \(line.prefix(200))")
            }
            samples += parts[2].split(separator: ",").compactMap { Int64($0) }.map { Duration.microseconds($0) }
        }
        return LatencyFigures(samples)
    }
}

/// Percentiles of a latency sample, printed in milliseconds.
struct LatencyFigures {
    let sorted: [Double]

    init(_ samples: [Duration]) {
        sorted = samples.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) * 1e-15 }.sorted()
    }

    /// Nearest-rank percentile.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }

    func print(_ title: String) {
        let format = { (value: Double) in String(format: "%.2f", value) }
        BenchOutput.line("\(title): p50 \(format(percentile(50))) ms, p95 \(format(percentile(95))) ms, "
            + "p99 \(format(percentile(99))) ms, max \(format(sorted.last ?? .nan)) ms, n=\(sorted.count)")
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The bench's lines, written straight to standard output: a figure printed before a later failure (or a
/// crash) is not lost in a buffer when the output goes to a pipe or a file.
enum BenchOutput {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
