/// The `<media>` field of an `m=` line (RFC 8866 §5.14). Open-ended, so unknown kinds survive a round trip.
public struct MediaKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let audio = MediaKind(rawValue: "audio")
    public static let video = MediaKind(rawValue: "video")
    public static let application = MediaKind(rawValue: "application")

    public var description: String { rawValue }
}

/// `a=sendrecv` / `sendonly` / `recvonly` / `inactive` (RFC 8866 §6.7), seen from the side that wrote it.
public enum MediaDirection: String, Hashable, Sendable, CaseIterable {
    case sendrecv, sendonly, recvonly, inactive

    public init(sends: Bool, receives: Bool) {
        switch (sends, receives) {
        case (true, true): self = .sendrecv
        case (true, false): self = .sendonly
        case (false, true): self = .recvonly
        case (false, false): self = .inactive
        }
    }

    public var sends: Bool { self == .sendrecv || self == .sendonly }
    public var receives: Bool { self == .sendrecv || self == .recvonly }

    /// The same direction as the peer sees it (our sendonly is their recvonly).
    public var reversed: MediaDirection { MediaDirection(sends: receives, receives: sends) }
}
