import Foundation
import Logging
import Synchronization

/// Installs `JournalLogHandler` as the process's swift-log backend.
public enum LoggingBootstrap {
    private static let bootstrapped = Mutex(false)

    /// Calls `LoggingSystem.bootstrap` the first time only (swift-log traps on a second bootstrap); later
    /// calls change nothing and return false. All handlers share one rate limiter.
    @discardableResult
    public static func bootstrap(
        level: Logger.Level = .info,
        rateLimitPerMinute: Int = 120,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        sink: LogSink = .standardError,
        metadataProvider: Logger.MetadataProvider? = nil
    ) -> Bool {
        let isFirst = bootstrapped.withLock { done in
            defer { done = true }
            return !done
        }
        guard isFirst else { return false }
        let style = LogLineStyle.detect(environment: environment)
        let limiter = SharedLogRateLimiter(LogRateLimiter(linesPerWindow: rateLimitPerMinute))
        LoggingSystem.bootstrap(
            { label, provider in
                var handler = JournalLogHandler(
                    label: label, style: style, rateLimiter: limiter, sink: sink, metadataProvider: provider)
                handler.logLevel = level
                return handler
            },
            metadataProvider: metadataProvider
        )
        return true
    }
}
