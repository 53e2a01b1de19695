import IntercomPlatform
import Synchronization

/// Collects log lines in memory: pass `sink` to a `JournalLogHandler` and read `lines`.
public final class LogCapture: Sendable {
    private let storage = Mutex<[String]>([])

    public init() {}

    public var sink: LogSink {
        LogSink { [self] line in storage.withLock { $0.append(line) } }
    }

    public var lines: [String] {
        storage.withLock { $0 }
    }
}
