/// The client-to-mixer audio level of one RTP audio packet (RFC 6464 §3): one byte, the voice-activity flag
/// in the top bit and the level in −dBov (0 is the loudest, 127 digital silence) in the other seven.
public struct AudioLevelIndication: Hashable, Sendable {
    /// The sender's voice-activity decision (optional for senders: Chrome sets it from its own detector).
    public var voiceActivity: Bool
    /// The level in dBov, −127…0.
    public var decibels: Int

    public init(voiceActivity: Bool, decibels: Int) {
        self.voiceActivity = voiceActivity
        self.decibels = max(-127, min(0, decibels))
    }

    /// The element's data: one byte (RFC 6464 §3, one-byte header form; extra bytes, allowed by the
    /// two-byte form, are ignored). Nil for an empty element.
    public init?(data: [UInt8]) {
        guard let byte = data.first else { return nil }
        self.init(voiceActivity: byte & 0x80 != 0, decibels: -Int(byte & 0x7F))
    }

    /// This packet's level, when it carries the negotiated extension `id`.
    public init?(packet: RTPPacket, id: UInt8) {
        guard let data = packet.headerExtension?.data(for: id) else { return nil }
        self.init(data: data)
    }
}
