import Logging

extension Logger.Level {
    /// The syslog priority journald reads from a `<N>` line prefix (sd-daemon(3)); swift-log has no
    /// emergency/alert levels, so `critical` maps to LOG_CRIT.
    public var syslogPriority: Int {
        switch self {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
