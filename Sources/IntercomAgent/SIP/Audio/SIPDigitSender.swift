import WebRTCCore

/// Key presses sent into a SIP call as RFC 4733 telephone-events (sans-IO): each event packet takes the slot of
/// one 20 ms audio packet, with that packet's SSRC and sequence number, so the stream stays one numbered
/// sequence and the audio is muted while a key sounds (§2.5.1.1 lets the sender send either). All packets of a
/// press carry the timestamp of its first slot (§2.5.1.2), the first is marked (§2.5.1.3), updates come every
/// 20 ms and the end packet three times (§2.5.1.4). Between presses `gap` of audio; `,` waits `pause`.
struct SIPDigitSender {
    /// One 20 ms audio packet: what an event packet replaces.
    static let slot = Duration.milliseconds(20)
    let payloadType: UInt8
    private let events: DTMFSender
    private let press: Duration
    private let gap: Int
    private let pause: Int
    private var queue: [Character] = []
    /// The packets of the press that is sounding, and its timestamp.
    private var sounding: [DTMFSender.Packet] = []
    private var waiting = 0
    /// Presses sent in full.
    private(set) var sent = 0

    /// `clockRate` is the negotiated telephone-event's, which must be the audio's (RFC 4733 §2.1).
    init(payloadType: UInt8, clockRate: UInt32, press: Duration = .milliseconds(100), gap: Duration = .milliseconds(100),
         pause: Duration = .seconds(1)) {
        self.payloadType = payloadType
        events = DTMFSender(clockRate: clockRate, updateInterval: Self.slot)
        self.press = press
        self.gap = Int(gap / Self.slot)
        self.pause = Int(pause / Self.slot)
    }

    /// True while keys wait or sound.
    var isBusy: Bool { !queue.isEmpty || !sounding.isEmpty || waiting > 0 }

    /// Queues `keys` (0–9, `*`, `#`, A–D, and `,` for a pause; others are ignored), after `lead` of audio.
    mutating func enqueue(_ keys: String, lead: Duration = .zero) {
        if !isBusy { waiting = Int(lead / Self.slot) }
        queue += keys.filter { $0 == "," || DTMFDigit($0) != nil }
    }

    /// The datagram to send in this audio packet's place: the audio itself, or the event packet that takes its
    /// slot. `audio` must be one serialized RTP packet of 20 ms (a datagram that is not RTP is passed on).
    mutating func place(_ audio: [UInt8]) -> [UInt8] {
        guard isBusy, let packet = try? RTPPacket(parsing: audio[...]) else { return audio }
        if sounding.isEmpty {
            if waiting > 0 {
                waiting -= 1
                return audio
            }
            while let key = queue.first, key == "," {
                queue.removeFirst()
                waiting += pause
            }
            if waiting > 0 {
                waiting -= 1
                return audio
            }
            guard let key = queue.first, let digit = DTMFDigit(key) else { return audio }
            queue.removeFirst()
            sounding = events.packets(for: digit, timestamp: packet.timestamp, length: press)
        }
        let event = sounding.removeFirst()
        if sounding.isEmpty {
            sent += 1
            waiting = queue.isEmpty ? 0 : gap
        }
        return (try? event.rtpPacket(payloadType: payloadType, sequenceNumber: packet.sequenceNumber, ssrc: packet.ssrc)
            .serialized()) ?? audio
    }
}
