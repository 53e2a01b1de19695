import Logging
import ServiceLifecycle

/// Gives the visitor log a bounded time to finish at shutdown, so a SIGTERM right after a visit does not
/// lose its snapshot or row. Placed just before `CallService` in the group (stopped in reverse), it runs
/// once calls have ended and queued their rows, while the backend session and the camera still work.
public struct VisitorLogService: Service {
    /// Long enough for one upload and one row on a slow link, short of systemd's stop timeout.
    public static let defaultGrace: Duration = .seconds(3)

    let log: VisitorLog
    let grace: Duration
    let logger: Logger

    public init(log: VisitorLog, grace: Duration = defaultGrace, logger: Logger) {
        self.log = log
        self.grace = grace
        self.logger = logger
    }

    public func run() async throws {
        // Cancelled rather than shut down gracefully: nothing is waited for.
        do { try await gracefulShutdown() } catch { return }
        let pending = await log.pending
        guard pending > 0 else { return }
        if await log.settle(within: grace) {
            logger.info("visitor log settled before exit", metadata: ["pending": "\(pending)"])
        } else {
            let left = await log.pending
            logger.warning("visitor log abandoned at exit: a snapshot or row took longer than the grace",
                           metadata: ["pending": "\(left)", "grace": "\(grace)"])
        }
    }
}
