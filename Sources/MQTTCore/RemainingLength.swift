/// The variable-length Remaining Length field of the fixed header (MQTT 3.1.1 §2.2.3): seven bits per byte,
/// least significant group first, the top bit saying another byte follows; at most four bytes (268,435,455).
public enum RemainingLength {
    public static let maximum = 268_435_455

    public static func encode(_ value: Int) -> [UInt8] {
        precondition((0...maximum).contains(value), "remaining length \(value) out of range")
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            var byte = UInt8(rest % 128)
            rest /= 128
            if rest > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while rest > 0
        return bytes
    }

    public enum Decoded: Equatable, Sendable {
        /// The value and how many bytes the field took.
        case value(Int, byteCount: Int)
        /// More bytes are needed to finish the field.
        case incomplete
    }

    /// Decodes the field at the start of `bytes`; a fifth continuation byte is an error.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(MQTTPacketError) -> Decoded {
        var value = 0
        var multiplier = 1
        var count = 0
        for byte in bytes {
            count += 1
            value += Int(byte & 0x7F) * multiplier
            if byte & 0x80 == 0 { return .value(value, byteCount: count) }
            if count == 4 { throw .malformedRemainingLength }
            multiplier *= 128
        }
        return .incomplete
    }
}
