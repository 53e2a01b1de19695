import Foundation
import IntercomServer
import IntercomTestSupport
import Logging
import ParseClient
import ParseWire
import ServiceLifecycle
import Synchronization

/// A real `intercom-server` on 127.0.0.1 (a free port) over a fresh database, for tests that speak to it
/// over real sockets the way the agent does (shared by ParseClientTests and IntercomAgentTests).
public struct RunningServer: Sendable {
    public let port: Int
    public let backend: IntercomBackend?

    public var serverURL: String { "http://127.0.0.1:\(port)/parse" }
    public var liveQueryURL: String { "ws://127.0.0.1:\(port)/parse" }

    public static let logger: Logger = {
        var logger = Logger(label: "parse-client-test")
        logger.logLevel = .critical
        return logger
    }()

    /// Runs `body` against a server started for it, then stops the server.
    public static func with<Value: Sendable>(
        port requestedPort: Int = 0, database: String? = nil, clock: ServerClock = .system,
        configure adjust: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (RunningServer) async throws -> Value
    ) async throws -> Value {
        let directory = try TemporaryDirectory(prefix: "parse-client")
        var configuration = ServerConfiguration()
        configuration.databasePath = database ?? directory.path("server.sqlite")
        if database == nil { configuration.databaseURL = TestPostgres.freshURL() }
        configuration.port = requestedPort
        configuration.passwordIterations = 10
        configuration.rateLimit.enabled = false
        adjust(&configuration)
        let backend = try await IntercomBackend(configuration: configuration, clock: clock, logger: logger)
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let application = ServerApplication.make(backend: backend, logger: logger) { port in
            portSink.yield(port ?? 0)
        }
        return try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask {
                try await application.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw TestFailure("the server did not start") }
            let value = try await body(RunningServer(port: port, backend: backend))
            group.cancelAll()
            while let _ = try? await group.next() {}
            _ = directory
            return value
        }
    }

    /// The address of a server that is not running now (for outage tests).
    public static func placeholder(_ port: Int) -> RunningServer {
        RunningServer(port: port, backend: nil)
    }

    /// A REST client as the agent builds it, logged in anonymously with `anonymousId`.
    public func anonymousClient(_ anonymousId: String = UUID().uuidString.lowercased()) async throws -> (ParseRESTClient, UserResponse) {
        let client = ParseRESTClient(
            serverURL: serverURL,
            settings: ParseClientSettings(applicationId: "intercom", installationId: UUID().uuidString.lowercased(),
                                          clientVersion: "test"),
            policy: RetryPolicy(maxAttempts: 2, baseDelaySeconds: 0.05, maxDelaySeconds: 0.1),
            attemptTimeout: .seconds(5), logger: Self.logger)
        let user = try await client.send(UserResponse.self) { builder, id in
            builder.anonymousLogin(anonymousId: anonymousId, requestId: id)
        }
        await client.setSessionToken(user.sessionToken)
        return (client, user)
    }
}

/// The system clock plus an offset the test moves (to let tokens and rings expire).
public final class ShiftedClock: Sendable {
    private let offset = Mutex<Double>(0)

    public init() {}

    public func advance(seconds: Double) { offset.withLock { $0 += seconds } }

    public var serverClock: ServerClock {
        ServerClock { [self] in Date().addingTimeInterval(offset.withLock { $0 }) }
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
