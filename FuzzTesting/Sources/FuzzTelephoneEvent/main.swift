import FuzzSupport
import WebRTCCore

/// RFC 4733 telephone-event payloads and the DTMF receiver: the input is a stream of 8-byte records
/// (4-byte RTP timestamp, 4-byte payload; a short tail is one malformed payload). Whatever parses must
/// serialize back to the same bytes apart from the R bit; the receiver must never crash and never report
/// more digits than records.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTelephoneEvent(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    var receiver = DTMFReceiver()
    var digits = 0
    var records = 0
    var offset = 0
    while offset < bytes.count {
        let record = Array(bytes[offset..<min(offset + 8, bytes.count)])
        offset += 8
        records += 1
        guard record.count > 4 else {
            if receiver.receive(timestamp: 0, payload: record) != nil { digits += 1 }
            continue
        }
        let timestamp = record.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let payload = Array(record.dropFirst(4))
        if let event = try? TelephoneEvent(parsing: payload) {
            var expected = payload
            expected[1] &= 0xBF
            fuzzRequire(event.serialized == expected, "telephone-event round trip changed \(payload) to \(event.serialized)")
        }
        if receiver.receive(timestamp: timestamp, payload: payload) != nil { digits += 1 }
    }
    fuzzRequire(digits <= records, "more digits than packets")
    return 0
}
