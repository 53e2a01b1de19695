/// Which token of the call row the device joins a signaling room with (SYSTEM.md §2).
public enum SessionRole: Equatable, Sendable {
    /// `publisherToken`: the device is the receiver of an incoming call.
    case publisher
    /// `subscriberToken`: the device is the caller of an outgoing call.
    case subscriber
}
