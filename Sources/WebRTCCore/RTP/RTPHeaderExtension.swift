/// The header extension block of an RTP packet: RFC 3550 §5.3.1, with the RFC 8285 element forms.
public enum RTPHeaderExtension: Hashable, Sendable {
    /// RFC 8285 §4.2, profile `0xBEDE`: ids 1...14, 1...16 data bytes each.
    case oneByte([RTPHeaderExtensionElement])
    /// RFC 8285 §4.3, profile `0x100` plus 4 application bits: ids 1...255, 0...255 data bytes each.
    case twoByte(appBits: UInt8, [RTPHeaderExtensionElement])
    /// Any other profile, kept as opaque words.
    case opaque(profile: UInt16, data: [UInt8])

    static let oneByteProfile: UInt16 = 0xBEDE
    static let twoByteProfileMask: UInt16 = 0xFFF0
    static let twoByteProfile: UInt16 = 0x1000

    /// The elements of an RFC 8285 block; empty for opaque ones.
    public var elements: [RTPHeaderExtensionElement] {
        switch self {
        case let .oneByte(elements), let .twoByte(_, elements): elements
        case .opaque: []
        }
    }

    /// The data of the first element with `id`, e.g. abs-send-time's 3 bytes.
    public func data(for id: UInt8) -> [UInt8]? {
        elements.first { $0.id == id }?.data
    }

    init(profile: UInt16, data: ArraySlice<UInt8>) throws(RTPError) {
        if profile == Self.oneByteProfile {
            self = .oneByte(try Self.parseElements(data, twoByte: false))
        } else if profile & Self.twoByteProfileMask == Self.twoByteProfile {
            self = .twoByte(appBits: UInt8(profile & 0x000F), try Self.parseElements(data, twoByte: true))
        } else {
            self = .opaque(profile: profile, data: Array(data))
        }
    }

    /// RFC 8285 §4.2/§4.3: zero bytes between elements are padding; a one-byte id of 15 ends parsing.
    private static func parseElements(_ data: ArraySlice<UInt8>, twoByte: Bool) throws(RTPError)
        -> [RTPHeaderExtensionElement]
    {
        var reader = ByteReader(data)
        var elements: [RTPHeaderExtensionElement] = []
        while let first = reader.peek() {
            if first == 0 {
                try reader.skip(1, or: RTPError.extensionElementOverrun(id: first))
                continue
            }
            let id: UInt8
            let length: Int
            if twoByte {
                id = first
                guard let lengthByte = reader.peek(1) else { throw .extensionElementOverrun(id: id) }
                length = Int(lengthByte)
                try reader.skip(2, or: RTPError.extensionElementOverrun(id: id))
            } else {
                id = first >> 4
                // ID 0 is padding whatever its length nibble says (as libwebrtc reads it); 15 ends the block.
                if id == 0 {
                    try reader.skip(1, or: RTPError.extensionElementOverrun(id: first))
                    continue
                }
                if id == 15 { break }
                length = Int(first & 0x0F) + 1
                try reader.skip(1, or: RTPError.extensionElementOverrun(id: first))
            }
            let value = try reader.readBytes(length, or: RTPError.extensionElementOverrun(id: id))
            elements.append(RTPHeaderExtensionElement(id: id, data: Array(value)))
        }
        return elements
    }

    /// The profile word and the data padded to whole words.
    func serialized() throws(RTPError) -> (profile: UInt16, data: [UInt8]) {
        var data: [UInt8] = []
        let profile: UInt16
        switch self {
        case let .oneByte(elements):
            profile = Self.oneByteProfile
            for element in elements {
                guard (1...14).contains(element.id), (1...16).contains(element.data.count) else {
                    throw .invalidExtensionElement(id: element.id, length: element.data.count)
                }
                data.append(element.id << 4 | UInt8(element.data.count - 1))
                data += element.data
            }
        case let .twoByte(appBits, elements):
            profile = Self.twoByteProfile | UInt16(appBits & 0x0F)
            for element in elements {
                guard element.id >= 1, element.data.count <= 255 else {
                    throw .invalidExtensionElement(id: element.id, length: element.data.count)
                }
                data.append(element.id)
                data.append(UInt8(element.data.count))
                data += element.data
            }
        case let .opaque(opaqueProfile, opaqueData):
            guard opaqueData.count % 4 == 0 else { throw .invalidExtensionLength(opaqueData.count) }
            profile = opaqueProfile
            data = opaqueData
        }
        data.padToWordBoundary()
        guard data.count / 4 <= Int(UInt16.max) else { throw .invalidExtensionLength(data.count) }
        return (profile, data)
    }
}

/// One RFC 8285 extension element: a local id (negotiated by `a=extmap`) and its data.
public struct RTPHeaderExtensionElement: Hashable, Sendable {
    public var id: UInt8
    public var data: [UInt8]

    public init(id: UInt8, data: [UInt8]) {
        self.id = id
        self.data = data
    }
}
