import FuzzSupport
import WebRTCCore

/// RTP header parser (reliability-test-matrix §(c) 3): one datagram parses or throws `RTPError`; whatever
/// parses must serialize and parse back to the same packet.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRTP(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    _ = DatagramClass(classifying: bytes)
    guard let packet = try? RTPPacket(parsing: bytes) else { return 0 }
    let wire: [UInt8]
    do {
        wire = try packet.serialized()
    } catch {
        fuzzFail("parsed RTP packet does not serialize: \(error)\n\(packet)")
    }
    fuzzRequire((try? RTPPacket(parsing: wire)) == packet, "RTP round trip changed the packet\n\(packet)\n\(wire)")
    return 0
}
