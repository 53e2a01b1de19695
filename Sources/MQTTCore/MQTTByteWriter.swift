/// Appends the field encodings of §1.5: big-endian 16-bit integers and length-prefixed strings and binary data.
struct MQTTByteWriter {
    var bytes: [UInt8] = []

    mutating func uint8(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    /// §1.5.3: a UTF-8 string prefixed with its byte count (at most 65,535 bytes; callers check).
    mutating func string(_ text: String) { binary(Array(text.utf8)) }

    mutating func binary(_ data: [UInt8]) {
        precondition(data.count <= Int(UInt16.max), "MQTT field longer than 65535 bytes")
        uint16(UInt16(data.count))
        bytes.append(contentsOf: data)
    }
}
