/// What a session token lets its holder do in a signaling room (SYSTEM.md §4): a `publisher` sends and
/// receives media; a `subscriber` only receives (view-only watchers).
public enum SessionRole: String, Sendable, Codable, CaseIterable {
    case publisher
    case subscriber
}
