import Synchronization
import Testing
import WebRTCCore
@testable import IntercomAgent

/// RFC 4733 key presses out of a SIP call: sans-IO slot by slot, then through a real `SIPAudioCall` to a
/// loopback peer that reads them with `DTMFReceiver`.
@Suite("SIP keys sent as RFC 4733 events")
struct SIPDigitSenderTests {
    /// 20 ms PCMU packets as the packetizer makes them: sequence from 100, timestamp +160.
    static func audio(_ count: Int) -> [[UInt8]] {
        var datagrams: [[UInt8]] = []
        for slot in 0..<count {
            let sequenceNumber = UInt16(100 + slot)
            let timestamp = UInt32(8000 + 160 * slot)
            let packet = RTPPacket(marker: slot == 0, payloadType: 0, sequenceNumber: sequenceNumber, timestamp: timestamp,
                                   ssrc: 0xABCD, payload: [UInt8](repeating: 0xFF, count: 160))
            datagrams.append(try! packet.serialized())
        }
        return datagrams
    }

    @Test("each event takes one audio slot with its sequence number; one timestamp per press; marker, 3 ends, gap")
    func slots() throws {
        var sender = SIPDigitSender(payloadType: 101, clockRate: 8000)
        sender.enqueue("1#")
        let out = try Self.audio(30).map { try RTPPacket(parsing: sender.place($0)) }
        #expect(out.map(\.sequenceNumber) == (0..<30).map { UInt16(100 + $0) })
        #expect(Set(out.map(\.ssrc)) == [0xABCD])
        let kinds = out.map(\.payloadType)
        // "1": 5 updates (100 ms at 20 ms) and the end 3 times; 100 ms of audio; "#" the same; then audio.
        #expect(kinds == [UInt8](repeating: 101, count: 8) + [UInt8](repeating: 0, count: 5)
                + [UInt8](repeating: 101, count: 8) + [UInt8](repeating: 0, count: 9))
        let first = try out[0..<8].map { try TelephoneEvent(parsing: $0.payload) }
        #expect(first.allSatisfy { $0.event == 1 } && out[0..<8].allSatisfy { $0.timestamp == 8000 })
        #expect(out[0].marker && !out[1..<8].contains { $0.marker })
        #expect(first.map(\.duration) == [0, 160, 320, 480, 640, 800, 800, 800])
        #expect(first.map(\.isEnd) == [false, false, false, false, false, true, true, true])
        let second = try out[13..<21].map { try TelephoneEvent(parsing: $0.payload) }
        #expect(second.allSatisfy { $0.event == 11 } && out[13..<21].allSatisfy { $0.timestamp == 8000 + 160 * 13 })
        #expect(sender.sent == 2 && !sender.isBusy)
    }

    @Test("a lead and a comma wait in audio; characters that are not keys are ignored")
    func leadAndPause() throws {
        var sender = SIPDigitSender(payloadType: 101, clockRate: 8000, pause: .milliseconds(200))
        sender.enqueue("x5,6", lead: .milliseconds(60))
        let kinds = try Self.audio(40).map { try RTPPacket(parsing: sender.place($0)).payloadType }
        // 3 slots of lead, "5" (8), the 100 ms gap plus the 200 ms pause (15), "6" (8), audio.
        #expect(kinds == [UInt8](repeating: 0, count: 3) + [UInt8](repeating: 101, count: 8) + [UInt8](repeating: 0, count: 15)
                + [UInt8](repeating: 101, count: 8) + [UInt8](repeating: 0, count: 6))
        #expect(sender.sent == 2)
    }

    @Test("SIPAudioCall.send(keys:) on a call with telephone-event: the peer reads the keys in order between its audio")
    func throughACall() async throws {
        let peer = try SIPAudioPeer()
        let endpoints = SIPAudioCallTests.ScriptedEndpoints()
        let offer = SIPAudioCallTests.offer(port: peer.port, formats: "0 101",
                                            rtpmaps: ["a=rtpmap:0 PCMU/8000", "a=rtpmap:101 telephone-event/8000"])
        let call = try SIPAudioCall(offer: offer, localHost: "127.0.0.1", codecs: [.pcmu], endpoints: endpoints,
                                    logger: SIPAudioCallTests.logger)
        call.start(onDigit: { _ in }, onState: { _ in })
        call.send(keys: "42", lead: .milliseconds(100))
        try await endpoints.speak(hertz: 1000, frames: 40)
        let packets = peer.receive(count: 40, timeout: .seconds(3)).compactMap { try? RTPPacket(parsing: $0) }
        await call.stop()
        #expect(packets.count == 40)
        var receiver = DTMFReceiver()
        let keys = packets.filter { $0.payloadType == 101 }.compactMap { receiver.receive($0)?.key }
        #expect(keys == ["4", "2"])
        #expect(packets.prefix(5).allSatisfy { $0.payloadType == 0 }, "100 ms of audio come first")
        #expect(call.counters.digitsSent == 2)
    }

    @Test("without telephone-event in the answer, send(keys:) sends no events and the audio goes on")
    func noTelephoneEvent() async throws {
        let peer = try SIPAudioPeer()
        let endpoints = SIPAudioCallTests.ScriptedEndpoints()
        let offer = SIPAudioCallTests.offer(port: peer.port, formats: "0", rtpmaps: ["a=rtpmap:0 PCMU/8000"])
        let call = try SIPAudioCall(offer: offer, localHost: "127.0.0.1", codecs: [.pcmu], endpoints: endpoints,
                                    logger: SIPAudioCallTests.logger)
        call.start(onDigit: { _ in }, onState: { _ in })
        call.send(keys: "1")
        try await endpoints.speak(hertz: 1000, frames: 20)
        let packets = peer.receive(count: 20, timeout: .seconds(3)).compactMap { try? RTPPacket(parsing: $0) }
        await call.stop()
        #expect(packets.count == 20 && packets.allSatisfy { $0.payloadType == 0 })
        #expect(call.counters.digitsSent == 0)
    }
}
