/// The VP8 payload descriptor at the start of every VP8 RTP payload (RFC 7741 §4.2).
///
/// ```
/// |X|R|N|S|R| PID |   X: |I|L|T|K| RSV |   I: |M| PictureID (7 or 15 bits) |
/// L: | TL0PICIDX |    T/K: |TID|Y| KEYIDX |
/// ```
/// Field values wider than their wire width are written modulo that width (PictureID wraps by design).
public struct VP8PayloadDescriptor: Hashable, Sendable {
    /// N: the frame can be discarded without affecting others.
    public var nonReference: Bool
    /// S: the first packet of a partition.
    public var startOfPartition: Bool
    /// PID: partition index, 3 bits.
    public var partitionIndex: UInt8
    public var pictureID: PictureID?
    /// L: TL0PICIDX.
    public var tl0PictureIndex: UInt8?
    /// T: TID, 2 bits.
    public var temporalLayerIndex: UInt8?
    /// Y: layer sync; written only with a temporal layer index.
    public var layerSync: Bool
    /// K: KEYIDX, 5 bits.
    public var keyIndex: UInt8?

    public enum PictureID: Hashable, Sendable {
        /// M=0: 7 bits.
        case short(UInt8)
        /// M=1: 15 bits; what we send.
        case long(UInt16)

        public var value: UInt16 {
            switch self {
            case let .short(id): UInt16(id & 0x7F)
            case let .long(id): id & 0x7FFF
            }
        }
    }

    public init(
        nonReference: Bool = false, startOfPartition: Bool, partitionIndex: UInt8 = 0, pictureID: PictureID? = nil,
        tl0PictureIndex: UInt8? = nil, temporalLayerIndex: UInt8? = nil, layerSync: Bool = false,
        keyIndex: UInt8? = nil
    ) {
        self.nonReference = nonReference
        self.startOfPartition = startOfPartition
        self.partitionIndex = partitionIndex
        self.pictureID = pictureID
        self.tl0PictureIndex = tl0PictureIndex
        self.temporalLayerIndex = temporalLayerIndex
        self.layerSync = layerSync
        self.keyIndex = keyIndex
    }

    /// True on the first packet of a frame: S=1 and PID=0.
    public var startsFrame: Bool { startOfPartition && partitionIndex == 0 }

    /// Parses the descriptor; returns it and the VP8 data that follows.
    public static func parse(_ payload: ArraySlice<UInt8>) throws(VP8Error)
        -> (descriptor: VP8PayloadDescriptor, data: ArraySlice<UInt8>)
    {
        var reader = ByteReader(payload)
        var needed = 1
        let truncated = { (needed: Int) in VP8Error.truncatedDescriptor(needed: needed, available: payload.count) }
        let first = try reader.readUInt8(or: truncated(needed))
        var descriptor = VP8PayloadDescriptor(
            nonReference: first & 0x20 != 0, startOfPartition: first & 0x10 != 0, partitionIndex: first & 0x07)
        if first & 0x80 != 0 {
            needed += 1
            let extensions = try reader.readUInt8(or: truncated(needed))
            if extensions & 0x80 != 0 {
                needed += 1
                let high = try reader.readUInt8(or: truncated(needed))
                if high & 0x80 != 0 {
                    needed += 1
                    let low = try reader.readUInt8(or: truncated(needed))
                    descriptor.pictureID = .long(UInt16(high & 0x7F) << 8 | UInt16(low))
                } else {
                    descriptor.pictureID = .short(high)
                }
            }
            if extensions & 0x40 != 0 {
                needed += 1
                descriptor.tl0PictureIndex = try reader.readUInt8(or: truncated(needed))
            }
            let hasTemporal = extensions & 0x20 != 0
            let hasKeyIndex = extensions & 0x10 != 0
            if hasTemporal || hasKeyIndex {
                needed += 1
                let byte = try reader.readUInt8(or: truncated(needed))
                if hasTemporal {
                    descriptor.temporalLayerIndex = byte >> 6
                    descriptor.layerSync = byte & 0x20 != 0
                }
                if hasKeyIndex { descriptor.keyIndex = byte & 0x1F }
            }
        }
        let data = reader.readRest()
        guard !data.isEmpty else { throw .emptyPayload }
        return (descriptor, data)
    }

    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = [0]
        var first = partitionIndex & 0x07
        if nonReference { first |= 0x20 }
        if startOfPartition { first |= 0x10 }
        var extensions: UInt8 = 0
        if pictureID != nil { extensions |= 0x80 }
        if tl0PictureIndex != nil { extensions |= 0x40 }
        if temporalLayerIndex != nil { extensions |= 0x20 }
        if keyIndex != nil { extensions |= 0x10 }
        if extensions != 0 {
            first |= 0x80
            bytes.append(extensions)
        }
        bytes[0] = first
        switch pictureID {
        case let .short(id): bytes.append(id & 0x7F)
        case let .long(id): bytes += [0x80 | UInt8(truncatingIfNeeded: (id & 0x7FFF) >> 8), UInt8(truncatingIfNeeded: id)]
        case nil: break
        }
        if let tl0PictureIndex { bytes.append(tl0PictureIndex) }
        if temporalLayerIndex != nil || keyIndex != nil {
            var byte: UInt8 = 0
            if let temporalLayerIndex {
                byte |= (temporalLayerIndex & 0x03) << 6
                if layerSync { byte |= 0x20 }
            }
            if let keyIndex { byte |= keyIndex & 0x1F }
            bytes.append(byte)
        }
        return bytes
    }
}
