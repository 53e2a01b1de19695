/// Whom the call button calls (SYSTEM.md §3, outgoing call).
public enum CallTarget: Equatable, Sendable {
    /// A fixed `ActiveUsers.userID`.
    case user(id: String)
    /// The nearest online `ActiveUsers` row with this `userTitle` within the radius (the IO layer resolves it).
    case nearest(title: String, radiusMeters: Double)
    /// A SIP URI (`sip:reception@pbx.example`), called through the device's SIP registrar (issue #18).
    case sip(uri: String)
}
