import FuzzSupport
import WebRTCCore

/// Multicast DNS messages as anyone on the link may send them to port 5353 (RFC 6762, RFC 1035 §4.1): every
/// record read has a 4- or 16-byte address and a name of at most 127 labels, and never more records than the
/// header declares. The input read as text, when it is a `.local` name, must give a query that parses as a
/// message without answers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMDNS(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    if let records = try? MDNSResponse.addressRecords(in: bytes) {
        let declared = bytes.count >= 12
            ? (6..<12).filter { $0 % 2 == 0 }.reduce(0) { $0 + (Int(bytes[$1]) << 8 | Int(bytes[$1 + 1])) } : 0
        fuzzRequire(records.count <= declared, "\(records.count) records from a header declaring \(declared)")
        for record in records {
            fuzzRequire(record.address.count == 4 || record.address.count == 16, "address of \(record.address.count) bytes")
            fuzzRequire(!record.addressText.isEmpty, "empty address text")
            // 255 bytes hold at most 127 one-byte labels (RFC 1035 §2.3.4).
            fuzzRequire(record.name.labels.count <= 127, "a name of \(record.name.labels.count) labels")
        }
    }
    if let name = try? MDNSHostName(String(decoding: bytes, as: UTF8.self)) {
        let query = MDNSQuery.encode(name)
        fuzzRequire((try? MDNSResponse.addressRecords(in: query)) == [], "our own query read as an answer")
    }
    return 0
}
