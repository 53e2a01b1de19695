/// SDES: source description, packet type 202 (RFC 3550 §6.5).
public struct SourceDescription: Hashable, Sendable {
    public var chunks: [Chunk]

    public init(chunks: [Chunk]) {
        self.chunks = chunks
    }

    /// One CNAME chunk, the only item WebRTC requires (RFC 3550 §6.5.1, RFC 7022).
    public static func cname(_ cname: String, ssrc: UInt32) -> SourceDescription {
        SourceDescription(chunks: [Chunk(ssrc: ssrc, items: [Item(type: Item.cnameType, value: Array(cname.utf8))])])
    }

    /// The CNAME announced for `ssrc`, if any.
    public func cname(of ssrc: UInt32) -> String? {
        let item = chunks.first { $0.ssrc == ssrc }?.items.first { $0.type == Item.cnameType }
        return item.map { String(decoding: $0.value, as: UTF8.self) }
    }

    public struct Chunk: Hashable, Sendable {
        public var ssrc: UInt32
        public var items: [Item]

        public init(ssrc: UInt32, items: [Item]) {
            self.ssrc = ssrc
            self.items = items
        }
    }

    /// An SDES item: type (1 CNAME, 2 NAME, … 8 PRIV) and up to 255 bytes of text.
    public struct Item: Hashable, Sendable {
        public var type: UInt8
        public var value: [UInt8]

        public init(type: UInt8, value: [UInt8]) {
            self.type = type
            self.value = value
        }

        public static let cnameType: UInt8 = 1
    }

    static let packetType: UInt8 = 202

    /// Chunks start on 32-bit boundaries; each ends with a null item padded to the next boundary.
    init(count: Int, body: inout ByteReader) throws(RTCPError) {
        guard count * 8 <= body.remaining else {
            throw .countOverrun(packetType: Self.packetType, count: count, available: body.remaining)
        }
        chunks = []
        for _ in 0..<count {
            let truncated = RTCPError.truncated(needed: 4, available: body.remaining)
            let ssrc = try body.readUInt32(or: truncated)
            var items: [Item] = []
            while true {
                let type = try body.readUInt8(or: RTCPError.sdesMissingTerminator)
                if type == 0 { break }
                let length = try body.readUInt8(or: RTCPError.sdesItemOverrun)
                let value = try body.readBytes(Int(length), or: RTCPError.sdesItemOverrun)
                items.append(Item(type: type, value: Array(value)))
            }
            let padding = (4 - body.offset % 4) % 4
            try body.skip(padding, or: RTCPError.sdesMissingTerminator)
            chunks.append(Chunk(ssrc: ssrc, items: items))
        }
    }

    func body() throws(RTCPError) -> (count: Int, bytes: [UInt8]) {
        guard chunks.count <= 31 else { throw .tooManyItems(chunks.count) }
        var bytes: [UInt8] = []
        for chunk in chunks {
            bytes.appendUInt32(chunk.ssrc)
            for item in chunk.items {
                guard item.type != 0 else { throw .invalidItemType }
                guard item.value.count <= 255 else { throw .itemTooLong(item.value.count) }
                bytes.append(item.type)
                bytes.append(UInt8(item.value.count))
                bytes += item.value
            }
            bytes.append(0)
            bytes.padToWordBoundary()
        }
        return (chunks.count, bytes)
    }
}
