/// The packets that send one key press as RFC 4733 telephone-events (sans-IO: the caller sends each at
/// `offset` after the press starts and numbers them with its RTP sequencer).
///
/// §2.5.1.2: the first packet has the marker bit; all packets carry the press's start as RTP timestamp and
/// the duration so far. Updates follow every 50 ms (the interval §2.5.1.2 suggests for telephone events).
/// §2.5.1.4: the final packet, with the E bit and the full duration, is sent three times; we space the
/// copies 20 ms apart so one burst loss does not take all three.
public struct DTMFSender: Sendable {
    /// One packet to send.
    public struct Packet: Hashable, Sendable {
        /// When to send it, from the start of the press.
        public var offset: Duration
        public var marker: Bool
        public var timestamp: UInt32
        public var event: TelephoneEvent

        public func rtpPacket(payloadType: UInt8, sequenceNumber: UInt16, ssrc: UInt32) -> RTPPacket {
            RTPPacket(
                marker: marker, payloadType: payloadType, sequenceNumber: sequenceNumber, timestamp: timestamp,
                ssrc: ssrc, payload: event.serialized)
        }
    }

    public var clockRate: UInt32
    public var updateInterval: Duration
    public var volume: UInt8

    public init(clockRate: UInt32 = 8000, updateInterval: Duration = .milliseconds(50), volume: UInt8 = 10) {
        self.clockRate = clockRate
        self.updateInterval = updateInterval
        self.volume = volume
    }

    /// The packets of one press of `digit` lasting `length` (clamped to 1 ms…the 16-bit duration field),
    /// starting at RTP timestamp `timestamp`.
    public func packets(for digit: DTMFDigit, timestamp: UInt32, length: Duration = .milliseconds(100)) -> [Packet] {
        let maxUnits = Int64(UInt16.max)
        let lengthUnits = min(max(units(length), 1), maxUnits)
        let step = max(units(updateInterval), 1)
        let volume = min(volume, 63)
        func event(_ duration: Int64, end: Bool) -> TelephoneEvent {
            TelephoneEvent(event: digit.event, isEnd: end, maskedVolume: volume, duration: UInt16(duration))
        }
        var packets: [Packet] = []
        var elapsed: Int64 = 0
        while elapsed < lengthUnits {
            packets.append(Packet(
                offset: duration(elapsed), marker: elapsed == 0, timestamp: timestamp, event: event(elapsed, end: false)))
            elapsed += step
        }
        for copy in 0..<3 {
            packets.append(Packet(
                offset: duration(lengthUnits) + .milliseconds(20 * copy), marker: false, timestamp: timestamp,
                event: event(lengthUnits, end: true)))
        }
        return packets
    }

    private func units(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * Int64(clockRate) + attoseconds / (1_000_000_000_000_000_000 / Int64(clockRate))
    }

    private func duration(_ units: Int64) -> Duration {
        .nanoseconds(units * 1_000_000_000 / Int64(clockRate))
    }
}
