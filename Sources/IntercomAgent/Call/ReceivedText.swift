import ParseWire

/// A text message the device received in a call (issue #22): the one info line it logs, with the text cut to
/// `logLimit` characters (the journal is not a message archive), and the acknowledgement it sends back.
public struct ReceivedText: Sendable, Equatable {
    static let logLimit = 200

    public let id: String
    public let text: String
    /// The sender's name as it joined the room, if it gave one.
    public let senderName: String?

    var logLine: String {
        let shown = text.unicodeScalars.count > Self.logLimit
            ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(Self.logLimit))) + "…"
            : text
        return "message from \(senderName ?? "the other side"): \(shown)"
    }

    var acknowledgement: SignalPayload { .textAck(id: id) }
}
