/// Turns received RTP telephone-event packets into key presses, each exactly once (sans-IO).
///
/// RFC 4733 §2.5.1: every packet of one event carries the event's start as its RTP timestamp; updates grow
/// the duration; the end packet is sent three times (§2.5.1.4). So an event is its timestamp: the first
/// packet with a timestamp newer than the last reported one (serial arithmetic, RFC 3550 wrap) reports the
/// digit, even if the start packet was lost; duplicates, retransmitted ends and late packets of an earlier
/// event carry an old timestamp and report nothing. Two presses of one key have two timestamps, so two
/// digits. An event longer than the 16-bit duration continues in a new segment whose timestamp is the old
/// one plus 0xFFFF (§2.5.1.3); that segment is not a new press.
public struct DTMFReceiver: Sendable {
    private var latest: (timestamp: UInt32, event: UInt8, ended: Bool, duration: UInt16)?

    public init() {}

    /// One packet of the negotiated telephone-event payload type: its RTP timestamp and payload.
    /// Returns the digit it starts, if any. Malformed payloads and non-DTMF events (16 and above) are ignored.
    public mutating func receive(timestamp: UInt32, payload: [UInt8]) -> DTMFDigit? {
        guard let event = try? TelephoneEvent(parsing: payload) else { return nil }
        if let latest {
            let ahead = Int32(bitPattern: timestamp &- latest.timestamp)
            if ahead < 0 { return nil }
            if ahead == 0 {
                if event.event == latest.event {
                    self.latest = (timestamp, event.event, latest.ended || event.isEnd, max(latest.duration, event.duration))
                }
                return nil
            }
            let continuation = !latest.ended && latest.event == event.event && latest.duration == .max
                && timestamp == latest.timestamp &+ UInt32(UInt16.max)
            self.latest = (timestamp, event.event, event.isEnd, event.duration)
            if continuation { return nil }
        } else {
            latest = (timestamp, event.event, event.isEnd, event.duration)
        }
        return DTMFDigit(event: event.event)
    }

    /// Convenience for a parsed RTP packet already known to be telephone-event.
    public mutating func receive(_ packet: RTPPacket) -> DTMFDigit? {
        receive(timestamp: packet.timestamp, payload: packet.payload)
    }
}
