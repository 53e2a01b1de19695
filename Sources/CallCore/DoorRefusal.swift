/// Why a caller's door-open request was refused.
public enum DoorRefusal: Equatable, Sendable {
    /// The config does not allow remote door opening.
    case disabledByPolicy
    /// The request came while not in a call (ringing, connecting, …).
    case notInCall
    /// The request came from a viewer, not from the call partner.
    case notCallPartner
}
