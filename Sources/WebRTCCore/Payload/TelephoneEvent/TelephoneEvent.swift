/// The 4-byte payload of an RTP telephone-event packet (RFC 4733 §2.3):
/// `event (8) | E (1) | R (1) | volume (6) | duration (16)`.
public struct TelephoneEvent: Hashable, Sendable {
    /// The event code; 0–15 are the DTMF digits (RFC 4733 §3.2).
    public var event: UInt8
    /// The E bit: this packet ends the event (§2.3.2).
    public var isEnd: Bool
    /// Power level as −dBm0, 0…63 (§2.3.4); only the low 6 bits are sent.
    public var volume: UInt8
    /// Event length so far, in RTP timestamp units from the packet's timestamp (§2.3.5).
    public var duration: UInt16

    public static let length = 4

    public init(event: UInt8, isEnd: Bool = false, volume: UInt8 = 10, duration: UInt16) throws(TelephoneEventError) {
        guard volume <= 63 else { throw .volumeOutOfRange(volume) }
        self.event = event
        self.isEnd = isEnd
        self.volume = volume
        self.duration = duration
    }

    /// For builders that already hold a valid volume: keeps its low 6 bits.
    init(event: UInt8, isEnd: Bool, maskedVolume volume: UInt8, duration: UInt16) {
        self.event = event
        self.isEnd = isEnd
        self.volume = volume & 0x3F
        self.duration = duration
    }

    /// Parses the payload. A receiver ignores the R bit (§2.3.3); longer payloads (RFC 2198 redundancy or
    /// several events) are refused rather than half-read.
    public init(parsing payload: some Collection<UInt8>) throws(TelephoneEventError) {
        guard payload.count == Self.length else { throw .wrongLength(payload.count) }
        let bytes = Array(payload)
        event = bytes[0]
        isEnd = bytes[1] & 0x80 != 0
        volume = bytes[1] & 0x3F
        duration = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }

    /// The payload bytes, R bit zero.
    public var serialized: [UInt8] {
        [event, (isEnd ? 0x80 : 0) | (volume & 0x3F), UInt8(duration >> 8), UInt8(truncatingIfNeeded: duration)]
    }
}

/// Why a telephone-event payload was refused.
public enum TelephoneEventError: Error, Equatable, Sendable {
    /// The payload is not exactly 4 bytes.
    case wrongLength(Int)
    /// Volume is a 6-bit field (RFC 4733 §2.3.4).
    case volumeOutOfRange(UInt8)
}
