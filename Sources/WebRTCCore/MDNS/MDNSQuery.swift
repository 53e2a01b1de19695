/// A multicast DNS query (RFC 6762 §5.4, §18; RFC 1035 §4.1): ID 0, no flags, one question per record
/// type for the name in class IN, each with the "unicast response" bit (§5.4) so a responder that honours
/// it answers the querier directly.
public enum MDNSQuery {
    public enum RecordType: UInt16, Sendable {
        case a = 1
        case aaaa = 28
    }

    /// The datagram to send to 224.0.0.251 or ff02::fb, port 5353.
    public static func encode(_ name: MDNSHostName, types: [RecordType] = [.a, .aaaa], unicastResponse: Bool = true)
        -> [UInt8]
    {
        // ID 0, flags 0, QDCOUNT, AN/NS/ARCOUNT 0.
        var bytes: [UInt8] = [0, 0, 0, 0, 0, UInt8(types.count), 0, 0, 0, 0, 0, 0]
        for (index, type) in types.enumerated() {
            if index == 0 {
                for label in name.labels {
                    bytes.append(UInt8(label.utf8.count))
                    bytes.append(contentsOf: label.utf8)
                }
                bytes.append(0)
            } else {
                bytes.append(contentsOf: [0xC0, 12])  // the first question's name (RFC 1035 §4.1.4)
            }
            bytes.append(contentsOf: [UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xFF)])
            bytes.append(contentsOf: [unicastResponse ? 0x80 : 0x00, 0x01])  // QU bit + class IN
        }
        return bytes
    }
}
