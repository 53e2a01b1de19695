import Foundation

/// How a log line is laid out.
public enum LogLineStyle: Sendable, Equatable {
    /// Under systemd: `<6>label: message k=v`. journald adds the timestamp and reads the priority prefix.
    case journal
    /// On a terminal or in a file: `2026-11-21T10:15:00.123Z info label: message k=v`.
    case console

    /// `journal` when systemd started us (it sets `JOURNAL_STREAM` when stdout/stderr go to the journal,
    /// and `INVOCATION_ID` for every service), `console` otherwise.
    public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> LogLineStyle {
        let underSystemd = [environment["JOURNAL_STREAM"], environment["INVOCATION_ID"]].contains { !($0 ?? "").isEmpty }
        return underSystemd ? .journal : .console
    }
}
