/// The playout buffer for a peer's Opus stream (RFC 7587: one 20 ms frame per RTP packet), sans-IO: packets
/// go in as they arrive, in any order; every 20 ms the speaker asks `next()` what to play.
///
/// - It holds `targetFrames` frames before it starts playing (the jitter it absorbs), then plays in
///   sequence-number order.
/// - A missing packet whose successor is here is rebuilt from the successor's in-band FEC copy
///   (RFC 6716 §2.1.7, the encoder's `inbandFEC`); with the successor missing too it is concealed (PLC).
/// - A packet that arrives after its turn is counted late and dropped.
/// - When more than `targetFrames * 3` frames wait (the sender's clock runs fast, or a burst), the
///   oldest go, so latency cannot creep.
/// - After `rebufferAfter` concealed frames in a row (the peer paused, or the path broke) it starts over
///   and buffers again.
public struct OpusJitterBuffer: Sendable, Equatable {
    public enum Playout: Equatable, Sendable {
        /// Play this packet.
        case packet([UInt8])
        /// Rebuild the missing frame from this (the next) packet's FEC data.
        case forwardErrorCorrection(from: [UInt8])
        /// Nothing to rebuild it from: conceal (decode with no packet).
        case conceal
        /// Still buffering: play silence.
        case waiting
    }

    public struct Counters: Equatable, Sendable {
        public var played = 0
        public var recoveredByFEC = 0
        public var concealed = 0
        public var late = 0
        public var trimmed = 0
        public var rebuffered = 0
    }

    public let targetFrames: Int
    public let rebufferAfter: Int
    public private(set) var counters = Counters()
    /// Extended sequence number → payload.
    private var packets: [Int64: [UInt8]] = [:]
    /// The next extended sequence number to play; nil while buffering.
    private var nextToPlay: Int64?
    /// The highest extended sequence number seen (for unwrapping 16-bit numbers).
    private var highest: Int64?
    private var concealedInARow = 0

    public init(targetFrames: Int = 3, rebufferAfter: Int = 25) {
        precondition(targetFrames >= 1 && rebufferAfter >= 1, "a buffer holds at least one frame")
        self.targetFrames = targetFrames
        self.rebufferAfter = rebufferAfter
    }

    /// Frames waiting to be played.
    public var depth: Int { packets.count }

    public mutating func insert(sequenceNumber: UInt16, payload: [UInt8]) {
        let extended = extend(sequenceNumber)
        if let nextToPlay, extended < nextToPlay {
            counters.late += 1
            return
        }
        packets[extended] = payload
        highest = max(highest ?? extended, extended)
        while packets.count > targetFrames * 3, let oldest = packets.keys.min() {
            packets[oldest] = nil
            counters.trimmed += 1
            if let next = nextToPlay, oldest >= next { nextToPlay = oldest + 1 }
        }
    }

    /// What to play for the next 20 ms.
    public mutating func next() -> Playout {
        guard let current = nextToPlay else {
            guard packets.count >= targetFrames, let first = packets.keys.min() else { return .waiting }
            nextToPlay = first
            return next()
        }
        nextToPlay = current + 1
        if let payload = packets.removeValue(forKey: current) {
            concealedInARow = 0
            counters.played += 1
            return .packet(payload)
        }
        if let following = packets[current + 1] {
            concealedInARow = 0
            counters.recoveredByFEC += 1
            return .forwardErrorCorrection(from: following)
        }
        counters.concealed += 1
        concealedInARow += 1
        if concealedInARow >= rebufferAfter {
            concealedInARow = 0
            nextToPlay = nil
            counters.rebuffered += 1
            // What is left (nothing within reach) waits for a new start.
        }
        return .conceal
    }

    /// The extended (wrap-free) value of a 16-bit sequence number: the one nearest the highest seen.
    private func extend(_ sequenceNumber: UInt16) -> Int64 {
        guard let highest else { return Int64(sequenceNumber) }
        let cycle = highest >> 16
        let candidates = [cycle - 1, cycle, cycle + 1].map { $0 << 16 | Int64(sequenceNumber) }
        return candidates.min { abs($0 - highest) < abs($1 - highest) } ?? Int64(sequenceNumber)
    }
}
