extension MQTTPacket {
    /// The packet on the wire: fixed header (type, flags, Remaining Length) then variable header and payload.
    public func encoded() -> [UInt8] {
        var body = MQTTByteWriter()
        var flags: UInt8 = 0
        switch self {
        case .connect(let connect):
            // §3.1.2.1–2: protocol name "MQTT", level 4.
            body.string("MQTT")
            body.uint8(4)
            var connectFlags: UInt8 = connect.cleanSession ? 0x02 : 0
            if let will = connect.will {
                connectFlags |= 0x04 | will.qos.rawValue << 3 | (will.retain ? 0x20 : 0)
            }
            if connect.password != nil { connectFlags |= 0x40 }
            if connect.username != nil { connectFlags |= 0x80 }
            body.uint8(connectFlags)
            body.uint16(connect.keepAliveSeconds)
            // §3.1.3: client id, will topic, will message, user name, password, in this order.
            body.string(connect.clientID)
            if let will = connect.will {
                body.string(will.topic)
                body.binary(will.payload)
            }
            if let username = connect.username { body.string(username) }
            if let password = connect.password { body.binary(password) }
        case .connack(let sessionPresent, let returnCode):
            body.uint8(sessionPresent ? 1 : 0)
            body.uint8(returnCode.code)
        case .publish(let message, let packetID, let duplicate):
            // §3.3.1: DUP, QoS and RETAIN in the fixed header's flags.
            flags = (duplicate ? 0x08 : 0) | message.qos.rawValue << 1 | (message.retain ? 0x01 : 0)
            body.string(message.topic)
            if message.qos > .atMostOnce { body.uint16(packetID ?? 0) }
            body.bytes.append(contentsOf: message.payload)
        case .puback(let packetID):
            body.uint16(packetID)
        case .subscribe(let packetID, let subscriptions):
            flags = 0x02  // §3.8.1: reserved bits 0010
            body.uint16(packetID)
            for subscription in subscriptions {
                body.string(subscription.topicFilter)
                body.uint8(subscription.qos.rawValue)
            }
        case .suback(let packetID, let returnCodes):
            body.uint16(packetID)
            body.bytes.append(contentsOf: returnCodes)
        case .pingreq, .pingresp, .disconnect:
            break
        }
        return [typeCode << 4 | flags] + RemainingLength.encode(body.bytes.count) + body.bytes
    }
}
