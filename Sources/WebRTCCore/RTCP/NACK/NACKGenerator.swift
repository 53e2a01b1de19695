/// Receiver-side loss tracking for generic NACK (RFC 4585 §6.2.1, the behaviour of Pion's NACK
/// generator): remembers missing sequence numbers inside a window behind the highest one received
/// and hands them out for (re)requests, each at most `maxRequestsPerPacket` times.
///
/// Sans-IO: the caller invokes `pendingRequests()` on its own timer (e.g. every 50–100 ms).
public struct NACKGenerator: Hashable, Sendable {
    /// How far behind the highest sequence number a gap is still worth requesting.
    public let window: Int
    public let maxRequestsPerPacket: Int
    private var unwrapper = SequenceNumberUnwrapper()
    private var highest: Int64?
    /// Extended sequence number → times requested so far.
    private var missing: [Int64: Int] = [:]

    public init(window: Int = 512, maxRequestsPerPacket: Int = 10) {
        self.window = max(1, window)
        self.maxRequestsPerPacket = max(1, maxRequestsPerPacket)
    }

    /// Whether any packet is considered lost now (cheap: no sorting).
    public var hasMissing: Bool { !missing.isEmpty }

    /// Sequence numbers currently considered lost, oldest first.
    public var missingSequenceNumbers: [UInt16] {
        missing.keys.sorted().map { UInt16(truncatingIfNeeded: $0) }
    }

    /// Records an arrival: opens gaps behind a new highest number, or closes one for a late packet.
    public mutating func received(sequenceNumber: UInt16) {
        let extended = unwrapper.unwrap(sequenceNumber)
        guard let previous = highest else {
            highest = extended
            return
        }
        if extended > previous {
            // A jump larger than the window (SSRC reset, long outage) only tracks the window's tail.
            let firstMissing = max(previous + 1, extended - Int64(window))
            if firstMissing < extended {
                for lost in firstMissing..<extended { missing[lost] = 0 }
            }
            highest = extended
            let oldest = extended - Int64(window)
            missing = missing.filter { $0.key >= oldest }
        } else {
            missing.removeValue(forKey: extended)
        }
    }

    /// The sequence numbers to NACK now, oldest first. Each call counts as one request; numbers that
    /// reach `maxRequestsPerPacket` are given up after this one.
    public mutating func pendingRequests() -> [UInt16] {
        let due = missing.keys.sorted()
        for key in due {
            let count = (missing[key] ?? 0) + 1
            missing[key] = count < maxRequestsPerPacket ? count : nil
        }
        return due.map { UInt16(truncatingIfNeeded: $0) }
    }

    /// `pendingRequests()` packed into one RTCP NACK, or nil when nothing is missing.
    public mutating func makeNACK(senderSSRC: UInt32, mediaSSRC: UInt32) -> GenericNACK? {
        let lost = pendingRequests()
        guard !lost.isEmpty else { return nil }
        return GenericNACK(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, lostSequenceNumbers: lost)
    }
}
