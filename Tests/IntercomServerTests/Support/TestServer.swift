import Foundation
import Hummingbird
import HummingbirdTesting
@testable import IntercomServer
import IntercomTestSupport
import Logging

/// A server over a fresh database in a temporary directory, with a hand-moved clock and a cheap password
/// hash. `run` drives it through Hummingbird's router test framework (no socket) or `.live` (a real socket).
struct TestServer {
    let directory: TemporaryDirectory
    let clock: TestClock
    let backend: IntercomBackend

    static let masterKey = "test-master-key"

    init(clock: TestClock = TestClock(), _ adjust: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        directory = try TemporaryDirectory(prefix: "intercom-server")
        self.clock = clock
        var configuration = ServerConfiguration()
        configuration.databasePath = directory.path("server.sqlite")
        configuration.databaseURL = TestPostgres.freshURL()
        configuration.port = 0
        configuration.passwordIterations = 10
        configuration.masterKey = Self.masterKey
        configuration.rateLimit.enabled = false
        adjust(&configuration)
        backend = try await IntercomBackend(configuration: configuration, clock: clock.serverClock,
                                            logger: Self.logger)
    }

    static let logger: Logger = {
        var logger = Logger(label: "intercom-server-test")
        logger.logLevel = .critical
        return logger
    }()

    /// Polls `condition` every 10 ms; fails after 10 s naming `what`.
    static func waitFor(_ what: String, _ condition: () -> Bool) async throws {
        let start = ContinuousClock.now
        while !condition() {
            guard ContinuousClock.now - start < .seconds(10) else { throw TestFailure("timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func run<Value: Sendable>(_ setup: TestingSetup = .router,
                              _ body: @Sendable (ParseTestClient) async throws -> Value) async throws -> Value {
        let application = ServerApplication.make(backend: backend, logger: Self.logger, sweeping: false)
        return try await application.test(setup) { client in
            // On PostgreSQL the application's bus starts with it: wait until it listens, so events are not
            // missed and /health is ready, as a load balancer would before sending traffic.
            if let bus = backend.changeBus {
                try await Self.waitFor("the bus to listen") { bus.currentState == .listening }
            }
            return try await body(ParseTestClient(client: client))
        }
    }
}
