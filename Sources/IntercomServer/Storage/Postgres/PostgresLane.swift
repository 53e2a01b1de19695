import Dispatch
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// One PostgreSQL connection and the serial queue that runs transactions on it: the stores' closures
/// are synchronous (the seam both engines share), so each statement waits for its reply on this queue's
/// thread, never on the Swift pool. A lost connection is opened again by the next transaction.
final class PostgresLane: Sendable {
    /// A reader lane's connection is read-only by default and runs each statement in its own implicit
    /// transaction: one round trip per statement instead of three. That gives up nothing, since PostgreSQL's
    /// default READ COMMITTED takes a fresh snapshot per statement inside BEGIN…COMMIT too. A writer lane
    /// wraps each closure in one SERIALIZABLE transaction.
    enum Mode: Sendable { case read, write }

    private let name: String
    private let mode: Mode
    private let settings: PostgresSettings
    private let queue: DispatchQueue
    private let connection = Mutex<PostgresConnection?>(nil)
    private let logger: Logger

    /// Serialization failures (SQLSTATE 40001, 40P01) are retried this many times before they surface.
    static let attempts = 8

    init(name: String, mode: Mode, settings: PostgresSettings, logger: Logger) {
        self.name = name
        self.mode = mode
        self.settings = settings
        queue = DispatchQueue(label: "intercom-pg-\(name)")
        self.logger = logger
    }

    /// Runs `body` on this lane's queue: on a writer in one serializable transaction, so two instances'
    /// read-modify-write of one row cannot both commit; on a reader statement by statement, read-only.
    func run<T: Sendable>(_ body: @Sendable (any StorageConnection) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            try await onQueue(body) { body in try self.transaction(body) }
        }
    }

    /// Runs `body` on the open connection outside any transaction (migrations).
    func runWithoutTransaction<T: Sendable>(_ body: @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            try await onQueue(body) { body in try body(try self.openConnection()) }
        }
    }

    /// Runs `work(body)` on the queue and waits for it. `body` does not outlive the call, but reaching the
    /// queue needs an escaping copy: it is handed over in a box emptied before the caller resumes, so
    /// `withoutActuallyEscaping` sees it released.
    private func onQueue<Body: Sendable, T: Sendable>(
        _ body: Body, _ work: @escaping @Sendable (Body) throws -> T
    ) async throws -> T {
        let pending = PendingBody(body)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.async {
                let result: Result<T, any Error>
                do {
                    guard let body = pending.take() else { fatalError("a lane job ran twice") }
                    result = Result { try work(body) }
                }
                continuation.resume(with: result)
            }
        }
    }

    deinit {
        // PostgresConnection must be closed before it goes; the completion keeps it alive until it is.
        if let open = connection.withLock({ $0.take() }) {
            open.close().whenComplete { _ in _ = open }
        }
    }

    func close() {
        queue.sync {
            if let open = connection.withLock({ $0.take() }) { try? open.close().wait() }
        }
    }

    private func transaction<T>(_ body: (any StorageConnection) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            let open = try openConnection()
            let session = PostgresTransaction(connection: open, logger: logger)
            do {
                if mode == .read { return try body(session) }
                try session.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
                let value = try body(session)
                try session.execute("COMMIT")
                return value
            } catch {
                if open.isClosed {
                    connection.withLock { $0 = nil }
                    // Nothing was committed on a connection that died; one fresh try is safe.
                    if attempt < 2 { continue }
                    throw StorageError.engine(call: "PostgreSQL \(name)", message: "connection lost: \(error)")
                }
                if mode == .write { _ = try? session.execute("ROLLBACK") }
                if PostgresTransaction.isSerializationFailure(error), attempt < Self.attempts {
                    // Back off a little more each time so two instances retrying the same row interleave.
                    usleep(useconds_t(1_000 * attempt * Int.random(in: 1...4)))
                    continue
                }
                throw error
            }
        }
    }

    private func openConnection() throws -> PostgresConnection {
        if let open = connection.withLock({ $0 }), !open.isClosed { return open }
        let opened: PostgresConnection
        do {
            opened = try PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(), configuration: settings.connectionConfiguration(),
                id: Int.random(in: 1...Int(Int32.max)), logger: logger
            ).wait()
        } catch {
            throw StorageError.engine(call: "connect to \(settings.redactedURL)", message: String(reflecting: error))
        }
        do {
            // The schema is created by the migration, before any lane opens.
            let session = PostgresTransaction(connection: opened, logger: logger)
            try session.execute("SET search_path TO \(settings.schema)")
            // A commit is acknowledged only once its WAL record is flushed, whatever the cluster's default.
            try session.execute("SET synchronous_commit TO on")
            if mode == .read { try session.execute("SET default_transaction_read_only TO on") }
        } catch {
            try? opened.close().wait()
            throw error
        }
        connection.withLock { $0 = opened }
        return opened
    }
}

/// The caller's closure on its way to a lane's queue: set before the job is queued, taken once on the queue
/// (dispatch orders the two), so no lock is needed. (A `Mutex` of a generic closure type crashed the
/// runtime's generic metadata instantiation here.)
private final class PendingBody<Body>: @unchecked Sendable {
    private var body: Body?

    init(_ body: Body) {
        self.body = body
    }

    func take() -> Body? {
        defer { body = nil }
        return body
    }
}
