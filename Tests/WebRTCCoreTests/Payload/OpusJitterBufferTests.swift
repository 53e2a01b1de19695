import Testing
import WebRTCCore

@Suite("Opus jitter buffer: reorder, FEC, concealment, late packets, wrap, trimming, rebuffering")
struct OpusJitterBufferTests {
    typealias Playout = OpusJitterBuffer.Playout

    static func payload(_ sequence: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: sequence >> 8), UInt8(truncatingIfNeeded: sequence)] }

    static func play(_ buffer: inout OpusJitterBuffer, _ count: Int) -> [Playout] {
        (0..<count).map { _ in buffer.next() }
    }

    @Test("it waits for targetFrames, then plays in sequence order whatever the arrival order")
    func reorders() {
        var buffer = OpusJitterBuffer(targetFrames: 3)
        buffer.insert(sequenceNumber: 11, payload: Self.payload(11))
        #expect(buffer.next() == .waiting)
        buffer.insert(sequenceNumber: 10, payload: Self.payload(10))
        #expect(buffer.next() == .waiting)
        buffer.insert(sequenceNumber: 13, payload: Self.payload(13))
        buffer.insert(sequenceNumber: 12, payload: Self.payload(12))
        #expect(Self.play(&buffer, 4) == [10, 11, 12, 13].map { .packet(Self.payload($0)) })
        #expect(buffer.counters.played == 4)
    }

    @Test("one lost packet is rebuilt from its successor's FEC; two in a row: the first is concealed")
    func fecThenConcealment() {
        var buffer = OpusJitterBuffer(targetFrames: 2)
        for sequence in [1, 3, 6, 7] { buffer.insert(sequenceNumber: UInt16(sequence), payload: Self.payload(sequence)) }
        #expect(Self.play(&buffer, 7) == [
            .packet(Self.payload(1)),
            .forwardErrorCorrection(from: Self.payload(3)),  // 2, from 3
            .packet(Self.payload(3)),
            .conceal,                                         // 4: neither 4 nor 5 arrived
            .forwardErrorCorrection(from: Self.payload(6)),  // 5, from 6
            .packet(Self.payload(6)),
            .packet(Self.payload(7)),
        ])
        #expect(buffer.counters.recoveredByFEC == 2 && buffer.counters.concealed == 1)
    }

    @Test("a packet after its turn is counted late and never played")
    func latePackets() {
        var buffer = OpusJitterBuffer(targetFrames: 1)
        buffer.insert(sequenceNumber: 100, payload: Self.payload(100))
        #expect(buffer.next() == .packet(Self.payload(100)))
        #expect(buffer.next() == .conceal)  // 101 missing
        buffer.insert(sequenceNumber: 101, payload: Self.payload(101))
        buffer.insert(sequenceNumber: 99, payload: Self.payload(99))
        #expect(buffer.counters.late == 2 && buffer.depth == 0)
    }

    @Test("sequence numbers wrap from 65535 to 0 without a gap")
    func wraps() {
        var buffer = OpusJitterBuffer(targetFrames: 2)
        for sequence in [65534, 65535, 0, 1] { buffer.insert(sequenceNumber: UInt16(sequence), payload: Self.payload(sequence)) }
        #expect(Self.play(&buffer, 4) == [65534, 65535, 0, 1].map { .packet(Self.payload($0)) })
    }

    @Test("more than three times the target waiting: the oldest are dropped so latency stays bounded")
    func trims() {
        var buffer = OpusJitterBuffer(targetFrames: 2)
        for sequence in 0..<10 { buffer.insert(sequenceNumber: UInt16(sequence), payload: Self.payload(sequence)) }
        #expect(buffer.depth == 6 && buffer.counters.trimmed == 4)
        #expect(buffer.next() == .packet(Self.payload(4)))
    }

    @Test("after rebufferAfter concealed frames it buffers again and restarts at the new packets")
    func rebuffers() {
        var buffer = OpusJitterBuffer(targetFrames: 2, rebufferAfter: 3)
        for sequence in 0..<2 { buffer.insert(sequenceNumber: UInt16(sequence), payload: Self.payload(sequence)) }
        _ = Self.play(&buffer, 2)
        #expect(Self.play(&buffer, 3) == [.conceal, .conceal, .conceal])
        #expect(buffer.next() == .waiting)
        for sequence in 500..<502 { buffer.insert(sequenceNumber: UInt16(sequence), payload: Self.payload(sequence)) }
        #expect(Self.play(&buffer, 2) == [500, 501].map { .packet(Self.payload($0)) })
        #expect(buffer.counters.rebuffered == 1)
    }

    @Test("a random mix of loss, reordering and duplicates plays each sequence number at most once, in order")
    func randomArrivals() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var buffer = OpusJitterBuffer(targetFrames: 3)
            var arrivals = (0..<200).filter { _ in Int.random(in: 0..<10, using: &generator) != 0 }
            arrivals += arrivals.prefix(10)  // duplicates
            var played: [Int] = []
            var index = 0
            while index < arrivals.count {
                // Up to three packets arrive swapped around before each tick.
                let burst = arrivals[index..<min(index + 2, arrivals.count)].shuffled(using: &generator)
                for sequence in burst { buffer.insert(sequenceNumber: UInt16(sequence), payload: Self.payload(sequence)) }
                index += burst.count
                if case .packet(let payload) = buffer.next() { played.append(Int(payload[0]) << 8 | Int(payload[1])) }
            }
            #expect(played == played.sorted() && Set(played).count == played.count, "\(played)")
        }
    }
}
