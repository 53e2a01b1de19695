import FuzzSupport
import WebRTCCore

/// RTCP compound parser (reliability-test-matrix §(c) 4): a datagram parses or throws `RTCPError`. Not every
/// parsed packet can be written back (the serializer refuses some), but what is written must parse back equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRTCP(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let packets = try? RTCPPacket.parseCompound(fuzzInput(data, size)) else { return 0 }
    guard let wire = try? RTCPPacket.serializeCompound(packets) else { return 0 }
    fuzzRequire(
        (try? RTCPPacket.parseCompound(wire)) == packets, "RTCP round trip changed the compound\n\(packets)\n\(wire)")
    return 0
}
