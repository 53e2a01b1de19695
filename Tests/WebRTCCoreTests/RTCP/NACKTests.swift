import Testing
@testable import WebRTCCore

@Suite("NACK generator and retransmission buffer")
struct NACKTests {
    @Test("tracks gaps across the wrap and forgets packets that arrive late")
    func generatorGaps() {
        var generator = NACKGenerator()
        for sequence: UInt16 in [65533, 65534, 1, 2, 5] { generator.received(sequenceNumber: sequence) }
        #expect(generator.missingSequenceNumbers == [65535, 0, 3, 4])
        generator.received(sequenceNumber: 0)
        #expect(generator.missingSequenceNumbers == [65535, 3, 4])
        #expect(generator.makeNACK(senderSSRC: 1, mediaSSRC: 2)?.lostSequenceNumbers == [65535, 3, 4])
    }

    @Test("gives up on a packet after the request limit")
    func generatorRetries() {
        var generator = NACKGenerator(maxRequestsPerPacket: 3)
        generator.received(sequenceNumber: 10)
        generator.received(sequenceNumber: 12)
        #expect(generator.pendingRequests() == [11])
        #expect(generator.pendingRequests() == [11])
        #expect(generator.pendingRequests() == [11])
        #expect(generator.pendingRequests() == [])
        #expect(generator.makeNACK(senderSSRC: 1, mediaSSRC: 2) == nil)
    }

    @Test("a jump beyond the window tracks only the window, and old gaps age out")
    func generatorWindow() {
        var generator = NACKGenerator(window: 8)
        generator.received(sequenceNumber: 100)
        generator.received(sequenceNumber: 102)
        #expect(generator.missingSequenceNumbers == [101])
        generator.received(sequenceNumber: 30000)
        #expect(generator.missingSequenceNumbers == Array(29992...29999))
    }

    @Test("answers a NACK with stored packets, across the wrap, within capacity")
    func buffer() {
        var buffer = RetransmissionBuffer(capacity: 4)
        for sequence: UInt16 in [65534, 65535, 0, 1, 2] { buffer.store([UInt8(truncatingIfNeeded: sequence)], sequenceNumber: sequence) }
        #expect(buffer.packet(for: 65534) == nil)  // pushed out by capacity
        #expect(buffer.packet(for: 65535) == [0xFF])
        #expect(buffer.packet(for: 2) == [2])
        #expect(buffer.packet(for: 3) == nil)
        let nack = GenericNACK(senderSSRC: 1, mediaSSRC: 2, lostSequenceNumbers: [65534, 65535, 0, 1])
        #expect(buffer.packets(for: nack) == [[0xFF], [0], [1]])
        #expect(RetransmissionBuffer().packet(for: 0) == nil)
    }

    @Test("a stale slot with the same residue is not returned")
    func bufferStale() {
        var buffer = RetransmissionBuffer(capacity: 4)
        buffer.store([1], sequenceNumber: 1)
        buffer.store([9], sequenceNumber: 9)  // same slot as 1 and 5; 5 was never stored
        #expect(buffer.packet(for: 5) == nil)
        #expect(buffer.packet(for: 1) == nil)
        #expect(buffer.packet(for: 9) == [9])
    }
}
