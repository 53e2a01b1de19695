import Testing
@testable import WebRTCCore

@Suite("RTP helpers")
struct RTPHelpersTests {
    @Test("unwraps sequence numbers across the 16-bit wrap, both directions")
    func unwrap() {
        var unwrapper = SequenceNumberUnwrapper()
        #expect([65534, 65535, 0, 1].map { unwrapper.unwrap($0) } == [65534, 65535, 65536, 65537])
        #expect(unwrapper.unwrap(65535) == 65535)  // reordered: before the wrap
        #expect(unwrapper.unwrap(2) == 65538)
        #expect(unwrapper.highestExtended == 65538)
        var early = SequenceNumberUnwrapper()
        #expect(early.unwrap(0) == 0)
        #expect(early.unwrap(65535) == -1)
        #expect(early.unwrap(30000) == 30000)  // under 32768 ahead of the highest (0): forward
        #expect(early.unwrap(65000) == -536)  // more than 32768 ahead of 30000: an old packet
    }

    @Test("unwraps a long monotonic run through several wraps")
    func manyWraps() {
        var unwrapper = SequenceNumberUnwrapper()
        var sequence: UInt16 = 60000
        var last: Int64 = 0
        for step in 0..<140_000 {
            let extended = unwrapper.unwrap(sequence)
            if step > 0 { #expect(extended == last + 1) }
            last = extended
            sequence &+= 1
        }
        #expect(last == 60000 + 139_999)
    }

    @Test("classifies datagrams by first byte (RFC 7983) and RTCP by packet type (RFC 5761)",
          arguments: [
            ([0x00, 0x01], DatagramClass.stun), ([0x03], .stun), ([0x04], .unknown), ([0x10], .zrtp),
            ([0x14, 0xFE], .dtls), ([0x16, 0xFE, 0xFD], .dtls), ([0x3F], .dtls), ([0x40, 0x00], .turnChannel),
            ([0x4F], .turnChannel), ([0x50], .unknown), ([0x7F], .unknown), ([0x80, 0x60], .rtp), ([0x80, 0xE0], .rtp),
            ([0x80, 0xC8], .rtcp), ([0x81, 0xC9], .rtcp), ([0x8F, 0xCE], .rtcp), ([0x80, 0xDF], .rtcp),
            ([0x80, 0xBF], .rtp), ([0x80, 0xE0], .rtp), ([0xBF, 0x00], .rtp), ([0x80], .rtp), ([0xC0, 0xC8], .unknown),
            ([], .unknown),
          ] as [([UInt8], DatagramClass)])
    func demux(bytes: [UInt8], expected: DatagramClass) {
        #expect(DatagramClass(classifying: bytes) == expected)
    }

    @Test("sequencer numbers packets across the wrap and marks the last")
    func sequencer() {
        var sequencer = RTPPacketSequencer(ssrc: 7, payloadType: 96, initialSequenceNumber: 65534)
        let packets = sequencer.packets(for: [[1], [2], [3]], timestamp: 90000, markLast: true)
        #expect(packets.map(\.sequenceNumber) == [65534, 65535, 0])
        #expect(packets.map(\.marker) == [false, false, true])
        #expect(packets.allSatisfy { $0.timestamp == 90000 && $0.ssrc == 7 && $0.payloadType == 96 })
        #expect(sequencer.nextSequenceNumber == 1)
        #expect(sequencer.packets(for: [[4]], timestamp: 1, markLast: false).first?.marker == false)
    }
}
