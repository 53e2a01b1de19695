import FuzzSupport
import MQTTCore

/// MQTT 3.1.1 framer, packet decoder and client session: any bytes give packets or an `MQTTPacketError`, never
/// a trap; every decoded packet encodes to bytes that decode to the same packet; the framer fed the same bytes in
/// two pieces gives the same packets and never buffers a packet past its limit; a connected session fed the
/// bytes as the broker's answers only closes the connection on garbage.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMQTT(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    var whole = MQTTFramer(maximumPacketSize: 4_096)
    let packets = try? whole.append(bytes)
    for packet in packets ?? [] { checkRoundTrip(packet) }

    var split = MQTTFramer(maximumPacketSize: 4_096)
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    if let first = try? split.append(bytes[..<cut]), let second = try? split.append(bytes[cut...]) {
        fuzzRequire(packets == first + second, "splitting the stream changed its packets")
        fuzzRequire(split.bufferedByteCount <= 4_096 + 5, "framer buffered past its limit")
    }
    exerciseSession(bytes, cut: cut)
    return 0
}

func checkRoundTrip(_ packet: MQTTPacket) {
    var framer = MQTTFramer(maximumPacketSize: 1 << 20)
    let wire = packet.encoded()
    do {
        let again = try framer.append(wire)
        fuzzRequire(again == [packet], "round trip changed \(packet) into \(again)")
    } catch {
        fuzzFail("encoded \(packet) does not decode: \(error)")
    }
}

/// A session that connected, then gets the input as the broker's bytes: whatever it answers, it must never
/// trap, and after garbage it is waiting to retry.
func exerciseSession(_ bytes: [UInt8], cut: Int) {
    var session = MQTTSession(configuration: MQTTSessionConfiguration(
        clientID: "fuzz", will: MQTTMessage(topic: "f/availability", text: "offline", retain: true),
        subscriptions: [.init(topicFilter: "f/door/set", qos: .atLeastOnce)]), maximumPacketSize: 4_096, jitter: { 0.5 })
    _ = session.handle(.start, at: .zero)
    _ = session.handle(.transportUp, at: .zero)
    for (index, piece) in [Array(bytes[..<cut]), Array(bytes[cut...])].enumerated() {
        let actions = session.handle(.received(piece), at: .seconds(index))
        if actions.contains(.closeConnection) {
            fuzzRequire(session.state == .waitingToRetry, "closed without scheduling a retry")
        }
    }
    _ = session.handle(.tick, at: .seconds(60))
    _ = session.handle(.stop, at: .seconds(61))
}
