import Logging

/// Deletes what has expired: ringing `ActiveSessions` rows past `expiresAt`, `ActiveUsers` rows not
/// re-saved for 3 heartbeats (offline devices, SYSTEM.md §2), expired `_Session`s, call sessions whose
/// tokens have expired, and old idempotency records. Reads already hide expired and stale rows; this
/// keeps the tables small.
public struct ExpirySweeper: Sendable {
    public struct Report: Sendable, Equatable {
        public var expiredCalls = 0
        public var staleUsers = 0
        public var expiredSessions = 0
        public var expiredCallSessions = 0
        public var expiredRequestIds = 0
        /// `CallLog` rows past the retention, and the files removed with them or as orphans.
        public var expiredCallLogs = 0
        public var expiredFiles = 0

        public var total: Int {
            expiredCalls + staleUsers + expiredSessions + expiredCallSessions + expiredRequestIds + expiredCallLogs
                + expiredFiles
        }
    }

    let database: ServerDatabase
    let clock: ServerClock
    let heartbeatSeconds: Int64
    let intervalSeconds: Int64
    let logger: Logger
    /// nil: the visitor log is kept forever.
    let callLogRetention: CallLogRetention?

    public init(database: ServerDatabase, clock: ServerClock, heartbeatSeconds: Int64, intervalSeconds: Int64,
                logger: Logger, callLogRetention: CallLogRetention? = nil) {
        self.callLogRetention = callLogRetention
        self.database = database
        self.clock = clock
        self.heartbeatSeconds = heartbeatSeconds
        self.intervalSeconds = max(1, intervalSeconds)
        self.logger = logger
    }

    /// One pass, at the clock's current time.
    @discardableResult
    public func sweepOnce() async throws -> Report {
        let now = clock.milliseconds
        let staleBefore = now - 3 * heartbeatSeconds * 1000
        let swept = try await database.write { db -> Report? in
            // On a fleet one instance sweeps at a time; the others find the lock taken and skip the pass.
            guard try db.tryTransactionLock("intercom-sweep") else { return nil }
            func delete(_ sql: String, _ bound: Int64) throws -> Int {
                try db.execute(sql, [bound])
            }
            var report = Report()
            report.expiredCalls = try delete("DELETE FROM ActiveSessions WHERE expiresAt <= ?", now)
            report.staleUsers = try delete("DELETE FROM ActiveUsers WHERE updatedAt < ?", staleBefore)
            report.expiredSessions = try delete(#"DELETE FROM "_Session" WHERE expiresAt <= ?"#, now)
            report.expiredCallSessions = try delete(#"DELETE FROM "_CallSession" WHERE expiresAt <= ?"#, now)
            report.expiredRequestIds = try delete(#"DELETE FROM "_Idempotency" WHERE expiresAt <= ?"#, now)
            if db.dialect == .postgres {
                // Spilled bus payloads are read within moments of their notification.
                try db.execute(#"DELETE FROM "_ChangeSpill" WHERE createdAt < now() - interval '5 minutes'"#)
            }
            return report
        }
        guard var report = swept else { return Report() }
        if let callLogRetention {
            (report.expiredCallLogs, report.expiredFiles) = try await callLogRetention.sweep(database, now: now)
        }
        return report
    }

    /// Sweeps every `intervalSeconds` until the task is cancelled; a failed pass is logged and retried.
    public func run() async {
        while !Task.isCancelled {
            do {
                let report = try await sweepOnce()
                if report.total > 0 {
                    logger.debug("swept expired rows", metadata: [
                        "calls": "\(report.expiredCalls)", "users": "\(report.staleUsers)",
                        "sessions": "\(report.expiredSessions)", "visits": "\(report.expiredCallLogs)",
                        "files": "\(report.expiredFiles)",
                    ])
                }
            } catch {
                logger.warning("sweep failed", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(intervalSeconds))
        }
    }
}
