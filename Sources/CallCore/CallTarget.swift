/// Whom the call button calls (SYSTEM.md §3, outgoing call).
public enum CallTarget: Equatable, Sendable {
    /// A fixed `ActiveUsers.userID`.
    case user(id: String)
    /// The nearest online `ActiveUsers` row with this `userTitle` within the radius (the IO layer resolves it).
    case nearest(title: String, radiusMeters: Double)
}
