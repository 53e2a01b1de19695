/// Generic NACK, RTPFB (205) FMT 1 (RFC 4585 §6.2.1): lost packets as PID + BLP pairs.
public struct GenericNACK: Hashable, Sendable {
    public var senderSSRC: UInt32
    public var mediaSSRC: UInt32
    public var items: [Item]

    /// One FCI entry: packet `packetID` is lost, and so is `packetID + i + 1` for each set bit i of the mask.
    public struct Item: Hashable, Sendable {
        public var packetID: UInt16
        public var lostBitmask: UInt16

        public init(packetID: UInt16, lostBitmask: UInt16) {
            self.packetID = packetID
            self.lostBitmask = lostBitmask
        }

        public var sequenceNumbers: [UInt16] {
            [packetID] + (0..<16).compactMap { bit in lostBitmask & (1 << bit) != 0 ? packetID &+ UInt16(bit + 1) : nil }
        }
    }

    public init(senderSSRC: UInt32, mediaSSRC: UInt32, items: [Item]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.items = items
    }

    /// Packs sequence numbers into items; pass them in ascending (wrap-aware) order for the fewest items.
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, lostSequenceNumbers: [UInt16]) {
        var items: [Item] = []
        for sequence in lostSequenceNumbers {
            if var last = items.last {
                let distance = sequence &- last.packetID
                if distance == 0 { continue }
                if distance <= 16 {
                    last.lostBitmask |= 1 << (distance - 1)
                    items[items.count - 1] = last
                    continue
                }
            }
            items.append(Item(packetID: sequence, lostBitmask: 0))
        }
        self.init(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, items: items)
    }

    /// Every sequence number the items name, in item order.
    public var lostSequenceNumbers: [UInt16] { items.flatMap(\.sequenceNumbers) }

    static let packetType: UInt8 = 205
    static let format: UInt8 = 1

    init(body: inout ByteReader) throws(RTCPError) {
        (senderSSRC, mediaSSRC) = try readFeedbackSSRCs(&body)
        guard body.remaining > 0 else { throw .emptyFeedback(packetType: Self.packetType, format: Self.format) }
        guard body.remaining % 4 == 0 else { throw .malformedFeedback(packetType: Self.packetType, format: Self.format) }
        items = []
        while !body.isAtEnd {
            let packetID = try body.readUInt16(or: RTCPError.truncated(needed: 2, available: 0))
            let mask = try body.readUInt16(or: RTCPError.truncated(needed: 2, available: 0))
            items.append(Item(packetID: packetID, lostBitmask: mask))
        }
    }

    func body() throws(RTCPError) -> (count: Int, bytes: [UInt8]) {
        guard !items.isEmpty else { throw .emptyFeedback(packetType: Self.packetType, format: Self.format) }
        var bytes = feedbackHeader(senderSSRC, mediaSSRC)
        for item in items {
            bytes.appendUInt16(item.packetID)
            bytes.appendUInt16(item.lostBitmask)
        }
        return (Int(Self.format), bytes)
    }
}

/// The two SSRCs every RFC 4585 §6.1 feedback message starts with.
func readFeedbackSSRCs(_ body: inout ByteReader) throws(RTCPError) -> (sender: UInt32, media: UInt32) {
    let truncated = RTCPError.truncated(needed: 8, available: body.remaining)
    return (try body.readUInt32(or: truncated), try body.readUInt32(or: truncated))
}

func feedbackHeader(_ sender: UInt32, _ media: UInt32) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendUInt32(sender)
    bytes.appendUInt32(media)
    return bytes
}
