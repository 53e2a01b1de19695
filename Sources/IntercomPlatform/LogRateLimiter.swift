/// A per-label log line budget over fixed windows (default: 120 lines per minute), so one misbehaving
/// component cannot flood journald (whose own limit, 10,000 per 30 s, is per service) or wear the SD card.
///
/// Sans-IO: time comes in as a monotonic `Duration` since any fixed origin. A window opens with the first
/// line of a label; lines over the budget are dropped and counted; the first line after the window closes
/// opens the next one and carries the count, which the caller prints as one summary line before it.
public struct LogRateLimiter: Sendable {
    /// Lines dropped from one label during one window.
    public struct Suppression: Sendable, Equatable {
        public let label: String
        public let count: Int

        public init(label: String, count: Int) {
            self.label = label
            self.count = count
        }

        /// The summary line, e.g. `suppressed 37 messages from intercom.media in the last minute`.
        public var summary: String { "suppressed \(count) messages from \(label) in the last minute" }
    }

    public enum Decision: Sendable, Equatable {
        /// Print the line; if `suppressed` is set, print its summary first.
        case emit(suppressed: Suppression?)
        /// Over budget: drop the line (it is counted).
        case drop
    }

    /// Labels beyond `maximumTrackedLabels` share this bucket, so dynamic labels cannot grow the table forever.
    public static let overflowLabel = "(other labels)"

    public let linesPerWindow: Int
    public let window: Duration
    public let maximumTrackedLabels: Int
    private var windows: [String: LabelWindow] = [:]

    struct LabelWindow {
        var start: Duration
        var emitted: Int
        var suppressed: Int
    }

    /// A budget below 1 is treated as 1: configuration validation should have rejected it already, and a
    /// logger must never crash the process.
    public init(linesPerWindow: Int = 120, window: Duration = .seconds(60), maximumTrackedLabels: Int = 256) {
        self.linesPerWindow = max(1, linesPerWindow)
        self.window = window
        self.maximumTrackedLabels = max(1, maximumTrackedLabels)
    }

    /// Number of labels currently tracked (for tests and diagnostics).
    public var trackedLabelCount: Int { windows.count }

    public mutating func admit(label: String, at now: Duration) -> Decision {
        let key = bucket(for: label, at: now)
        if var current = windows[key], now - current.start < window {
            if current.emitted < linesPerWindow {
                current.emitted += 1
                windows[key] = current
                return .emit(suppressed: nil)
            }
            current.suppressed += 1
            windows[key] = current
            return .drop
        }
        let previous = windows[key]?.suppressed ?? 0
        windows[key] = LabelWindow(start: now, emitted: 1, suppressed: 0)
        return .emit(suppressed: previous > 0 ? Suppression(label: key, count: previous) : nil)
    }

    /// Closes every window that has ended and returns what it dropped, for a caller that wants the summaries
    /// without waiting for the label's next line (a periodic flush, or shutdown with `at: .seconds(Int64.max)`).
    public mutating func drainExpired(at now: Duration) -> [Suppression] {
        var result: [Suppression] = []
        for (key, current) in windows where now - current.start >= window {
            if current.suppressed > 0 { result.append(Suppression(label: key, count: current.suppressed)) }
            windows[key] = nil
        }
        return result.sorted { $0.label < $1.label }
    }

    /// The label's own bucket, or the shared overflow bucket when the table is full of live windows.
    private mutating func bucket(for label: String, at now: Duration) -> String {
        guard windows[label] == nil, windows.count >= maximumTrackedLabels else { return label }
        // Forget windows that ended with nothing to report; they carry no state worth keeping.
        windows = windows.filter { $0.value.suppressed > 0 || now - $0.value.start < window }
        return windows.count >= maximumTrackedLabels ? Self.overflowLabel : label
    }
}
