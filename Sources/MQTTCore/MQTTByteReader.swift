/// Reads the field encodings of §1.5 from one packet's variable header and payload; running out of bytes is
/// `MQTTPacketError.truncated`, never a trap.
struct MQTTByteReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - index }
    var isAtEnd: Bool { index >= bytes.endIndex }

    mutating func uint8(_ field: String) throws(MQTTPacketError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(field: field) }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func uint16(_ field: String) throws(MQTTPacketError) -> UInt16 {
        guard remaining >= 2 else { throw .truncated(field: field) }
        defer { index += 2 }
        return UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    mutating func binary(_ field: String) throws(MQTTPacketError) -> [UInt8] {
        let count = Int(try uint16(field))
        guard remaining >= count else { throw .truncated(field: field) }
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    /// §1.5.3: well-formed UTF-8 without U+0000.
    mutating func string(_ field: String) throws(MQTTPacketError) -> String {
        let raw = try binary(field)
        guard let text = String(validating: raw, as: UTF8.self), !raw.contains(0) else { throw .invalidString(field: field) }
        return text
    }

    /// Everything left (a PUBLISH payload).
    mutating func rest() -> [UInt8] {
        defer { index = bytes.endIndex }
        return Array(bytes[index...])
    }
}
