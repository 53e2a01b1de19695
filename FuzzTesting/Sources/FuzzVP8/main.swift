import FuzzSupport
import WebRTCCore

/// Frames larger than this are dropped; small so the fuzzer reaches the limit.
let maxFrameSize = 4096

/// VP8 over RTP (RFC 7741; reliability-test-matrix §(c) 6). The input is read four ways:
/// as one payload descriptor (which must survive serialize → parse), as a frame header, as a packet stream
/// for the depacketizer (frames it emits are non-empty and within its limit), and as a frame that the
/// packetizer splits and the depacketizer must rebuild byte for byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVP8(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    checkDescriptorRoundTrip(bytes)
    _ = try? VP8FrameHeader(parsing: bytes[...])
    _ = try? VP8FrameHeader(parsing: bytes[...], requireWholePartition: false)
    checkDepacketizer(PacketStream(bytes))
    checkPacketizerRoundTrip(bytes)
    return 0
}

func checkDescriptorRoundTrip(_ bytes: [UInt8]) {
    guard let (descriptor, _) = try? VP8PayloadDescriptor.parse(bytes[...]) else { return }
    // One data byte after the descriptor: `parse` refuses a payload without data.
    let reparsed = try? VP8PayloadDescriptor.parse((descriptor.serialized() + [0])[...]).descriptor
    fuzzRequire(reparsed == descriptor, "VP8 descriptor round trip: \(descriptor) became \(String(describing: reparsed))")
}

func checkDepacketizer(_ stream: PacketStream) {
    var depacketizer = VP8Depacketizer(maxFrameSize: maxFrameSize)
    for packet in stream {
        guard let events = try? depacketizer.push(packet) else { continue }
        for case let .frame(frame) in events {
            fuzzRequire(!frame.data.isEmpty, "depacketizer emitted an empty frame")
            fuzzRequire(frame.data.count <= maxFrameSize, "depacketizer emitted \(frame.data.count) bytes")
            _ = try? VP8FrameHeader(parsing: frame.data[...])
        }
    }
}

func checkPacketizerRoundTrip(_ frame: [UInt8]) {
    guard !frame.isEmpty, frame.count <= maxFrameSize else { return }
    // Packet size from the first byte: 1 to 64 data bytes per packet, so frames span many packets.
    let maxPacketSize = 12 + 4 + 1 + Int(frame[0] & 0x3F)
    guard var packetizer = try? VP8Packetizer(maxPacketSize: maxPacketSize, initialPictureID: 0x7FFE) else {
        fuzzFail("VP8Packetizer refused packet size \(maxPacketSize)")
    }
    guard let payloads = try? packetizer.packetize(frame) else { fuzzFail("VP8Packetizer refused a non-empty frame") }
    var sequencer = RTPPacketSequencer(ssrc: 1, payloadType: 96, initialSequenceNumber: 65535)
    var depacketizer = VP8Depacketizer(maxFrameSize: maxFrameSize)
    var rebuilt: [VP8Frame] = []
    for packet in sequencer.packets(for: payloads, timestamp: 90000, markLast: true) {
        guard let events = try? depacketizer.push(packet) else { fuzzFail("depacketizer refused a packetizer packet") }
        for case let .frame(frame) in events { rebuilt.append(frame) }
    }
    fuzzRequire(
        rebuilt.map(\.data) == [frame],
        "packetize → depacketize of \(frame.count) bytes in \(payloads.count) packets gave \(rebuilt.map(\.data.count))")
}
