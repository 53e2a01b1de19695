import Foundation
import Logging

/// A swift-log handler that writes one line per event for journald (with a `<N>` priority prefix, see
/// sd-daemon(3)) or a terminal (ISO-8601 timestamp, level, label), within a per-label rate budget.
public struct JournalLogHandler: LogHandler {
    public let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public let formatter: LogLineFormatter
    let rateLimiter: SharedLogRateLimiter
    let sink: LogSink
    let clock: LogClock

    /// - Parameter rateLimiter: share one instance between all handlers (as `LoggingBootstrap` does) so that
    ///   every `Logger` with the same label draws on the same budget.
    public init(
        label: String,
        style: LogLineStyle = .detect(),
        rateLimiter: SharedLogRateLimiter = SharedLogRateLimiter(),
        sink: LogSink = .standardError,
        clock: LogClock = .system,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.formatter = LogLineFormatter(style: style)
        self.rateLimiter = rateLimiter
        self.sink = sink
        self.clock = clock
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        guard case .emit(let suppressed) = rateLimiter.admit(label: label, at: clock.monotonicNow()) else { return }
        let time = clock.wallNow()
        if let suppressed {
            sink.write(formatter.format(level: .warning, label: suppressed.label, message: suppressed.summary, time: time))
        }
        sink.write(
            formatter.format(
                level: event.level, label: label, message: event.message.description,
                metadata: mergedMetadata(event), time: time))
    }

    /// Handler metadata, then the task-local provider's, then the call's own; later ones win.
    func mergedMetadata(_ event: LogEvent) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        if let error = event.error, merged["error"] == nil { merged["error"] = "\(error)" }
        return merged
    }
}
