/// A VP8 frame rebuilt from RTP packets.
public struct VP8Frame: Hashable, Sendable {
    public var timestamp: UInt32
    public var pictureID: UInt16?
    public var data: [UInt8]

    public init(timestamp: UInt32, pictureID: UInt16?, data: [UInt8]) {
        self.timestamp = timestamp
        self.pictureID = pictureID
        self.data = data
    }

    /// The frame tag's P bit is 0 (RFC 6386 §9.1). Use `VP8FrameHeader` to also check the start code.
    public var isKeyFrame: Bool { data.first.map { $0 & 0x01 == 0 } ?? false }
}

/// What one packet did to the reassembler.
public enum VP8DepacketizerEvent: Hashable, Sendable {
    case frame(VP8Frame)
    /// Data is missing — a sequence gap (`missingPackets` > 0) or packets of a frame whose start was
    /// never seen (`missingPackets` 0) — so a frame was dropped. The decoder's references are now
    /// suspect: request a key frame (PLI, rate-limited).
    case frameLost(missingPackets: Int)
}

/// Rebuilds VP8 frames from RTP packets in sequence order (RFC 7741 §4.5): S=1/PID=0 starts a frame,
/// the marker bit or a new timestamp ends it. Any gap drops the partial frame and reports a loss;
/// duplicates and late packets are ignored. Feed it from a jitter buffer if packets can reorder.
public struct VP8Depacketizer: Hashable, Sendable {
    /// Frames larger than this are dropped with `VP8Error.frameTooLarge`, bounding memory.
    public let maxFrameSize: Int
    private var unwrapper = SequenceNumberUnwrapper()
    private var lastSequence: Int64?
    private var partial: VP8Frame?
    /// After a loss, continuation packets of the broken frame are dropped silently.
    private var discarding = false

    public init(maxFrameSize: Int = 4 * 1024 * 1024) {
        self.maxFrameSize = maxFrameSize
    }

    /// Consumes one packet. A malformed descriptor throws and leaves the state untouched, so the packet
    /// counts as lost when the next one arrives.
    public mutating func push(_ packet: RTPPacket) throws(VP8Error) -> [VP8DepacketizerEvent] {
        let (descriptor, data) = try VP8PayloadDescriptor.parse(packet.payload[...])
        let sequence = unwrapper.unwrap(packet.sequenceNumber)
        if let lastSequence, sequence <= lastSequence { return [] }
        var events: [VP8DepacketizerEvent] = []
        let missing = lastSequence.map { Int(clamping: sequence - $0 - 1) } ?? 0
        lastSequence = sequence

        if missing > 0 {
            partial = nil
            discarding = true
            events.append(.frameLost(missingPackets: missing))
        }
        if let current = partial, current.timestamp != packet.timestamp {
            // Same-sequence continuity but a new timestamp: the sender omitted the marker.
            events.append(.frame(current))
            partial = nil
        }
        if descriptor.startsFrame {
            discarding = false
            let pictureID = descriptor.pictureID?.value
            partial = VP8Frame(timestamp: packet.timestamp, pictureID: pictureID, data: [])
        } else if partial == nil {
            if !discarding {
                discarding = true
                events.append(.frameLost(missingPackets: 0))
            }
            return events
        }
        guard var current = partial else { return events }
        guard current.data.count + data.count <= maxFrameSize else {
            partial = nil
            discarding = true
            throw .frameTooLarge(bytes: current.data.count + data.count, limit: maxFrameSize)
        }
        current.data += data
        if packet.marker {
            events.append(.frame(current))
            partial = nil
        } else {
            partial = current
        }
        return events
    }
}
