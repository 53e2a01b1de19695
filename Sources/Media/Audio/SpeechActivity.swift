/// How long a party spoke, from the level of each of its audio packets (RFC 6464 indications, or levels
/// measured from decoded PCM), for the visitor log's "visitor spoke 12 s".
///
/// A packet is speech when it is at least `startLevel` loud, or, once speech has started, while it stays
/// above `holdLevel` (hysteresis: the quiet ends of syllables count, a fan's hum below `holdLevel` does not).
/// Packets are timed by their RTP timestamps (48 kHz Opus clock), so a lost or DTX-suppressed stretch is not
/// counted as speech, and a first packet or a jump after a gap counts as one nominal 20 ms packet.
public struct SpeechActivity: Sendable, Equatable {
    /// Where speech starts: about a conversational voice at a phone's microphone (the web caller's
    /// talking indicator turns on at −26 dBFS of the received, decoded signal).
    public static let startLevel = -40
    /// Where speech ends once started.
    public static let holdLevel = -50
    static let clockRate = 48_000
    static let nominalPacket: UInt32 = 960  // 20 ms
    static let longestPacket: UInt32 = 5_760  // 120 ms, Opus's longest (RFC 6716 §3.2.5)

    public private(set) var speaking = false
    /// Seconds of packets counted as speech.
    public var spokenSeconds: Double { Double(spokenTicks) / Double(Self.clockRate) }
    /// Packets that carried a level at all (zero: the sender sent none, nothing to judge from).
    public private(set) var measuredPackets = 0

    private var spokenTicks: UInt64 = 0
    private var lastTimestamp: UInt32?

    public init() {}

    /// One packet: its RTP timestamp and its level in dBov (−127…0).
    public mutating func add(timestamp: UInt32, decibels: Int) {
        measuredPackets += 1
        var duration = Self.nominalPacket
        if let last = lastTimestamp {
            let step = timestamp &- last
            // A gap longer than one packet can be (loss, DTX) counts as one packet, never as the gap; a late or
            // repeated packet (a "negative" step) counts as one packet and does not move the clock back.
            if step > 0, step <= Self.longestPacket { duration = step }
            if Int32(bitPattern: step) > 0 { lastTimestamp = timestamp }
        } else {
            lastTimestamp = timestamp
        }
        speaking = decibels >= (speaking ? Self.holdLevel : Self.startLevel)
        if speaking { spokenTicks += UInt64(duration) }
    }
}
