import MQTTCore
import Testing

@Suite("MQTT 3.1.1 packets (§3)")
struct PacketCodingTests {
    func decodeOne(_ bytes: [UInt8]) throws -> MQTTPacket {
        var framer = MQTTFramer()
        let packets = try framer.append(bytes)
        #expect(packets.count == 1)
        #expect(framer.bufferedByteCount == 0)
        return try #require(packets.first)
    }

    @Test func connectWithWillUserAndPasswordRoundTrips() throws {
        let will = MQTTMessage(topic: "intercom/dev/availability", text: "offline", qos: .atLeastOnce, retain: true)
        let connect = MQTTPacket.connect(.init(clientID: "intercom-dev", keepAliveSeconds: 30, will: will,
                                               username: "ha", password: Array("secret".utf8)))
        let bytes = connect.encoded()
        // §3.1.2: "MQTT", level 4, flags: user, password, will retain, will QoS 1, will, clean session.
        #expect(Array(bytes[2..<10]) == [0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04, 0b1110_1110])
        #expect(Array(bytes[10..<12]) == [0x00, 30])
        #expect(try decodeOne(bytes) == connect)
    }

    @Test func fixedPacketsHaveTheirSpecBytes() {
        #expect(MQTTPacket.pingreq.encoded() == [0xC0, 0x00])
        #expect(MQTTPacket.pingresp.encoded() == [0xD0, 0x00])
        #expect(MQTTPacket.disconnect.encoded() == [0xE0, 0x00])
        #expect(MQTTPacket.puback(packetID: 0x1234).encoded() == [0x40, 0x02, 0x12, 0x34])
        #expect(MQTTPacket.connack(sessionPresent: false, returnCode: .accepted).encoded() == [0x20, 0x02, 0x00, 0x00])
    }

    @Test func publishCarriesQoSRetainAndPacketID() throws {
        let message = MQTTMessage(topic: "a/b", text: "on", qos: .atLeastOnce, retain: true)
        let bytes = MQTTPacket.publish(message, packetID: 10, duplicate: false).encoded()
        #expect(bytes == [0x33, 0x09, 0x00, 0x03, 0x61, 0x2F, 0x62, 0x00, 0x0A, 0x6F, 0x6E])
        #expect(try decodeOne(bytes) == .publish(message, packetID: 10, duplicate: false))
        let qos0 = MQTTPacket.publish(MQTTMessage(topic: "t", payload: []), packetID: nil, duplicate: false)
        #expect(try decodeOne(qos0.encoded()) == qos0)
    }

    @Test func subscribeAndSubackRoundTrip() throws {
        let subscribe = MQTTPacket.subscribe(packetID: 7, [.init(topicFilter: "intercom/+/door/set", qos: .atLeastOnce)])
        #expect(subscribe.encoded().first == 0x82)  // §3.8.1: flags 0010
        #expect(try decodeOne(subscribe.encoded()) == subscribe)
        #expect(try decodeOne([0x90, 0x03, 0x00, 0x07, 0x01]) == .suback(packetID: 7, returnCodes: [1]))
    }

    @Test func connackReturnCodes() throws {
        #expect(try decodeOne([0x20, 0x02, 0x01, 0x05]) == .connack(sessionPresent: true, returnCode: .notAuthorized))
        #expect(throws: MQTTPacketError.protocolViolation("§3.2.2.1: reserved CONNACK flags set")) {
            try decodeOne([0x20, 0x02, 0x02, 0x00])
        }
    }

    @Test func malformedPacketsAreTypedErrors() {
        var framer = MQTTFramer()
        #expect(throws: MQTTPacketError.reservedPacketType(0)) { try framer.append([0x00, 0x00]) }
        #expect(throws: MQTTPacketError.invalidFlags(packetType: 12, flags: 1)) { try framer.append([0xC1, 0x00]) }
        #expect(throws: MQTTPacketError.invalidFlags(packetType: 8, flags: 0)) { try framer.append([0x80, 0x00]) }
        #expect(throws: MQTTPacketError.invalidQoS(3)) { try framer.append([0x36, 0x03, 0x00, 0x01, 0x61]) }
        #expect(throws: MQTTPacketError.truncated(field: "PUBLISH topic")) { try framer.append([0x30, 0x03, 0x00, 0x05, 0x61]) }
        #expect(throws: MQTTPacketError.trailingBytes(packetType: 4, count: 1)) { try framer.append([0x40, 0x03, 0x00, 0x01, 0x00]) }
        #expect(throws: MQTTPacketError.invalidString(field: "PUBLISH topic")) { try framer.append([0x30, 0x04, 0x00, 0x02, 0xC3, 0x28]) }
        #expect(throws: MQTTPacketError.invalidString(field: "PUBLISH topic")) { try framer.append([0x30, 0x03, 0x00, 0x01, 0x00]) }
        #expect(throws: MQTTPacketError.protocolViolation("§3.3.2.1: PUBLISH topic empty or with a wildcard")) {
            try framer.append([0x30, 0x03, 0x00, 0x01, 0x23])
        }
        #expect(throws: MQTTPacketError.protocolViolation("§2.3.1: packet identifier 0")) {
            try framer.append([0x32, 0x05, 0x00, 0x01, 0x61, 0x00, 0x00])
        }
    }
}
