/// The address records of a multicast DNS message (RFC 6762 §18, RFC 1035 §4.1.3): every A and AAAA record
/// of class IN in its answer and additional sections. Responses are not tied to our query's ID (§18.1), so
/// any message read off port 5353 is scanned, and the caller keeps the records for the name it asked.
public struct MDNSAddressRecord: Sendable, Equatable {
    public let name: MDNSHostName
    /// 4 bytes (A) or 16 bytes (AAAA), network order.
    public let address: [UInt8]
    /// Seconds the record may be kept (0: the responder withdraws it, RFC 6762 §10.1).
    public let timeToLive: UInt32

    /// The address in the text form ICE candidates carry (`192.0.2.1`, `2001:db8::1`).
    public var addressText: String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        return IPv6Text.format(address)
    }
}

public enum MDNSResponse {
    /// Names may nest pointers; more than this many hops is a loop in all but name.
    static let maximumPointerHops = 32

    public static func addressRecords(in message: [UInt8]) throws(MDNSError) -> [MDNSAddressRecord] {
        var reader = ByteReader(message[...])
        _ = try reader.readUInt16(or: MDNSError.truncated(field: "header"))
        let flags = try reader.readUInt16(or: MDNSError.truncated(field: "header"))
        let questions = try reader.readUInt16(or: MDNSError.truncated(field: "header"))
        let answers = try reader.readUInt16(or: MDNSError.truncated(field: "header"))
        let authorities = try reader.readUInt16(or: MDNSError.truncated(field: "header"))
        let additionals = try reader.readUInt16(or: MDNSError.truncated(field: "header"))
        guard flags & 0x8000 != 0 else { return [] }  // a query (QR 0), ours or another host's
        for _ in 0..<questions {
            _ = try readName(message, at: &reader)
            try reader.skip(4, or: MDNSError.truncated(field: "question"))
        }
        var records: [MDNSAddressRecord] = []
        for _ in 0..<(Int(answers) + Int(authorities) + Int(additionals)) {
            let labels = try readName(message, at: &reader)
            let type = try reader.readUInt16(or: MDNSError.truncated(field: "record type"))
            let recordClass = try reader.readUInt16(or: MDNSError.truncated(field: "record class")) & 0x7FFF  // cache-flush bit
            let timeToLive = try reader.readUInt32(or: MDNSError.truncated(field: "record TTL"))
            let length = Int(try reader.readUInt16(or: MDNSError.truncated(field: "record length")))
            let data = try reader.readBytes(length, or: MDNSError.truncated(field: "record data"))
            guard recordClass == 1, (type == 1 && length == 4) || (type == 28 && length == 16) else { continue }
            records.append(MDNSAddressRecord(name: MDNSHostName(uncheckedLabels: labels), address: Array(data),
                                             timeToLive: timeToLive))
        }
        return records
    }

    /// One name at the reader, following compression pointers (RFC 1035 §4.1.4) only backwards, into the
    /// whole message; the reader ends after the name's first pointer or its root label.
    static func readName(_ message: [UInt8], at reader: inout ByteReader) throws(MDNSError) -> [String] {
        var labels: [String] = []
        var wireLength = 1
        var cursor = reader
        var followed = false
        var hops = 0
        var lowestPointer = message.count
        while true {
            let start = message.count - cursor.remaining
            let length = try cursor.readUInt8(or: MDNSError.truncated(field: "name"))
            switch length & 0xC0 {
            case 0x00:
                if length == 0 {
                    if !followed { reader = cursor }
                    return labels
                }
                let label = try cursor.readBytes(Int(length), or: MDNSError.truncated(field: "name"))
                wireLength += Int(length) + 1
                guard wireLength <= 255 else { throw .nameTooLong }
                labels.append(String(decoding: label, as: UTF8.self))
            case 0xC0:
                let low = try cursor.readUInt8(or: MDNSError.truncated(field: "name pointer"))
                let target = Int(length & 0x3F) << 8 | Int(low)
                hops += 1
                guard target < start, target < lowestPointer, hops <= maximumPointerHops else {
                    throw .badCompression(offset: start)
                }
                lowestPointer = target
                if !followed { reader = cursor }
                followed = true
                cursor = ByteReader(message[...])
                try cursor.skip(target, or: MDNSError.truncated(field: "name pointer"))
            default:
                throw .unsupportedLabelType(length & 0xC0)
            }
        }
    }
}
