import MQTTCore
import Testing

@Suite("Stream framer")
struct FramerTests {
    let packets: [MQTTPacket] = [
        .connack(sessionPresent: false, returnCode: .accepted),
        .suback(packetID: 1, returnCodes: [1]),
        .publish(MQTTMessage(topic: "intercom/x/door/set", text: "PRESS"), packetID: nil, duplicate: false),
        .publish(MQTTMessage(topic: "big", payload: Array(repeating: 0x41, count: 20_000), qos: .atLeastOnce), packetID: 9, duplicate: true),
        .pingresp,
    ]

    @Test func anySplitOfTheStreamGivesTheSamePackets() throws {
        let stream = packets.flatMap { $0.encoded() }
        for chunk in [1, 2, 3, 7, 100, 5_000, stream.count] {
            var framer = MQTTFramer()
            var decoded: [MQTTPacket] = []
            var offset = 0
            while offset < stream.count {
                decoded += try framer.append(stream[offset..<min(offset + chunk, stream.count)])
                offset += chunk
            }
            #expect(decoded == packets, "chunk \(chunk)")
            #expect(framer.bufferedByteCount == 0)
        }
    }

    @Test func anOversizedLengthFailsBeforeItsBodyArrives() {
        var framer = MQTTFramer(maximumPacketSize: 1_024)
        // PUBLISH announcing 2,097,152 bytes: refused on its four header bytes alone.
        #expect(throws: MQTTPacketError.packetTooLarge(length: 2_097_152, limit: 1_024)) {
            try framer.append([0x30, 0x80, 0x80, 0x80, 0x01])
        }
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func aHalfPacketWaits() throws {
        var framer = MQTTFramer()
        #expect(try framer.append([0xD0]).isEmpty)
        #expect(try framer.append([0x00, 0xC0]) == [.pingresp])
        #expect(framer.bufferedByteCount == 1)
    }
}
