/// The `reason` of a signaling `bye` (SYSTEM.md §4). The wire parser maps unknown reasons to `.error`.
public enum ByeReason: String, Equatable, Sendable, CaseIterable {
    case hangup
    case declined
    case busy
    case timeout
    case error
}
