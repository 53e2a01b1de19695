import MQTTCore
import Testing

@Suite("Remaining Length (MQTT 3.1.1 §2.2.3)")
struct RemainingLengthTests {
    /// The table in §2.2.3: the edges of one to four bytes.
    @Test(arguments: [(0, 1), (127, 1), (128, 2), (16_383, 2), (16_384, 3), (2_097_151, 3), (2_097_152, 4), (268_435_455, 4)])
    func roundTripsAtTheEdges(value: Int, byteCount: Int) throws {
        let bytes = RemainingLength.encode(value)
        #expect(bytes.count == byteCount)
        #expect(try RemainingLength.decode(bytes) == .value(value, byteCount: byteCount))
    }

    @Test func specExamples() {
        #expect(RemainingLength.encode(321) == [0xC1, 0x02])
        #expect(RemainingLength.encode(268_435_455) == [0xFF, 0xFF, 0xFF, 0x7F])
    }

    @Test func fiveBytesAreMalformed() {
        #expect(throws: MQTTPacketError.malformedRemainingLength) { try RemainingLength.decode([0xFF, 0xFF, 0xFF, 0xFF, 0x01]) }
    }

    @Test func aContinuationByteAtTheEndIsIncomplete() throws {
        #expect(try RemainingLength.decode([0x80, 0x80]) == .incomplete)
        #expect(try RemainingLength.decode([UInt8]()) == .incomplete)
    }
}
