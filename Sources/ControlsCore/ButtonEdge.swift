/// One edge event of a button line, as the kernel reports it.
///
/// The direction is *logical*: the line was requested with `GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW`, so the
/// kernel already inverts it and a physical falling edge of a pulled-up button arrives as `rising`.
public enum ButtonEdge: Equatable, Sendable {
    /// The line became active: the contact closed (`GPIOD_LINE_EVENT_RISING_EDGE`).
    case rising
    /// The line became inactive: the contact opened (`GPIOD_LINE_EVENT_FALLING_EDGE`).
    case falling

    /// The logical level after this edge.
    var isActive: Bool { self == .rising }
}
