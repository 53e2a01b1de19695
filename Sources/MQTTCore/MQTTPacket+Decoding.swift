extension MQTTPacket {
    /// Decodes one packet from its first fixed-header byte and its body (variable header and payload, exactly
    /// Remaining Length bytes, as `MQTTFramer` cuts them).
    public static func decode(header: UInt8, body: ArraySlice<UInt8>) throws(MQTTPacketError) -> MQTTPacket {
        let type = header >> 4
        let flags = header & 0x0F
        var reader = MQTTByteReader(body)
        let packet: MQTTPacket
        switch type {
        case 0, 15:
            throw .reservedPacketType(type)
        case 3:
            packet = try decodePublish(flags: flags, reader: &reader)
        default:
            // §2.2.2: every other type has fixed flags, 0010 for SUBSCRIBE (and PUBREL, UNSUBSCRIBE).
            let expected: UInt8 = [6, 8, 10].contains(type) ? 0x02 : 0
            guard flags == expected else { throw .invalidFlags(packetType: type, flags: flags) }
            packet = try decodeOther(type: type, reader: &reader)
        }
        guard reader.isAtEnd else { throw .trailingBytes(packetType: type, count: reader.remaining) }
        return packet
    }

    private static func decodePublish(flags: UInt8, reader: inout MQTTByteReader) throws(MQTTPacketError) -> MQTTPacket {
        guard let qos = MQTTQoS(rawValue: (flags >> 1) & 0x03) else { throw .invalidQoS((flags >> 1) & 0x03) }
        let duplicate = flags & 0x08 != 0
        // §3.3.1.1: DUP must be 0 for QoS 0.
        if qos == .atMostOnce, duplicate { throw .protocolViolation("§3.3.1.1: DUP set on a QoS 0 PUBLISH") }
        let topic = try reader.string("PUBLISH topic")
        // §3.3.2.1: a PUBLISH topic names one topic; wildcards are for filters.
        if topic.isEmpty || topic.contains("+") || topic.contains("#") {
            throw .protocolViolation("§3.3.2.1: PUBLISH topic empty or with a wildcard")
        }
        var packetID: UInt16?
        if qos > .atMostOnce {
            let id = try reader.uint16("PUBLISH packet identifier")
            if id == 0 { throw .protocolViolation("§2.3.1: packet identifier 0") }
            packetID = id
        }
        let message = MQTTMessage(topic: topic, payload: reader.rest(), qos: qos, retain: flags & 0x01 != 0)
        return .publish(message, packetID: packetID, duplicate: duplicate)
    }

    private static func decodeOther(type: UInt8, reader: inout MQTTByteReader) throws(MQTTPacketError) -> MQTTPacket {
        switch type {
        case 1:
            return .connect(try decodeConnect(&reader))
        case 2:
            let acknowledge = try reader.uint8("CONNACK flags")
            // §3.2.2.1: bits 7–1 are reserved and must be 0.
            guard acknowledge & 0xFE == 0 else { throw .protocolViolation("§3.2.2.1: reserved CONNACK flags set") }
            return .connack(sessionPresent: acknowledge == 1, returnCode: ConnectReturnCode(try reader.uint8("CONNACK return code")))
        case 4:
            return .puback(packetID: try reader.uint16("PUBACK packet identifier"))
        case 8:
            let packetID = try reader.uint16("SUBSCRIBE packet identifier")
            var subscriptions: [Subscription] = []
            repeat {
                let filter = try reader.string("SUBSCRIBE topic filter")
                let requested = try reader.uint8("SUBSCRIBE QoS")
                // §3.8.3.1: the upper six bits are reserved.
                guard requested & 0xFC == 0, let qos = MQTTQoS(rawValue: requested) else { throw .invalidQoS(requested) }
                subscriptions.append(Subscription(topicFilter: filter, qos: qos))
            } while !reader.isAtEnd
            return .subscribe(packetID: packetID, subscriptions)
        case 9:
            let packetID = try reader.uint16("SUBACK packet identifier")
            let codes = reader.rest()
            // §3.9.3: 0x00, 0x01, 0x02 or 0x80, at least one.
            guard !codes.isEmpty, codes.allSatisfy({ $0 <= 2 || $0 == 0x80 }) else {
                throw .protocolViolation("§3.9.3: SUBACK return codes")
            }
            return .suback(packetID: packetID, returnCodes: codes)
        case 12: return .pingreq
        case 13: return .pingresp
        case 14: return .disconnect
        default:
            throw .protocolViolation("packet type \(type) is not used by this client")
        }
    }

    private static func decodeConnect(_ reader: inout MQTTByteReader) throws(MQTTPacketError) -> Connect {
        guard try reader.string("CONNECT protocol name") == "MQTT" else { throw .protocolViolation("§3.1.2.1: protocol name") }
        guard try reader.uint8("CONNECT protocol level") == 4 else { throw .protocolViolation("§3.1.2.2: protocol level") }
        let flags = try reader.uint8("CONNECT flags")
        // §3.1.2.3: bit 0 reserved; §3.1.2.9: a password needs a user name.
        guard flags & 0x01 == 0 else { throw .protocolViolation("§3.1.2.3: reserved CONNECT flag set") }
        if flags & 0x40 != 0, flags & 0x80 == 0 { throw .protocolViolation("§3.1.2.9: password without user name") }
        let hasWill = flags & 0x04 != 0
        let willQoSBits = (flags >> 3) & 0x03
        guard let willQoS = MQTTQoS(rawValue: willQoSBits) else { throw .invalidQoS(willQoSBits) }
        if !hasWill, willQoSBits != 0 || flags & 0x20 != 0 { throw .protocolViolation("§3.1.2.6: will QoS or retain without a will") }
        let keepAlive = try reader.uint16("CONNECT keep alive")
        var connect = Connect(clientID: try reader.string("CONNECT client identifier"), keepAliveSeconds: keepAlive,
                              cleanSession: flags & 0x02 != 0)
        if hasWill {
            let topic = try reader.string("CONNECT will topic")
            connect.will = MQTTMessage(topic: topic, payload: try reader.binary("CONNECT will message"), qos: willQoS,
                                       retain: flags & 0x20 != 0)
        }
        if flags & 0x80 != 0 { connect.username = try reader.string("CONNECT user name") }
        if flags & 0x40 != 0 { connect.password = try reader.binary("CONNECT password") }
        return connect
    }
}
