import Testing
@testable import WebRTCCore

@Suite("RTP audio level indication (RFC 6464)")
struct AudioLevelIndicationTests {
    @Test("the V bit and −dBov from one byte; extra bytes ignored; empty data is none")
    func parsing() {
        #expect(AudioLevelIndication(data: [0x80 | 30]) == AudioLevelIndication(voiceActivity: true, decibels: -30))
        #expect(AudioLevelIndication(data: [127]) == AudioLevelIndication(voiceActivity: false, decibels: -127))
        #expect(AudioLevelIndication(data: [0x00, 0xFF]) == AudioLevelIndication(voiceActivity: false, decibels: 0))
        #expect(AudioLevelIndication(data: []) == nil)
    }

    @Test("read from a parsed packet under the negotiated id only")
    func fromPacket() throws {
        // RTP header, then a one-byte extension block (0xBEDE, 1 word): id 1, length 1 (L = 0), level 0x80|40.
        let bytes: [UInt8] = [0x90, 111, 0, 1, 0, 0, 3, 0xC0, 0, 0, 0, 7, 0xBE, 0xDE, 0, 1, 0x10, 0x80 | 40, 0, 0, 0xAA]
        let packet = try RTPPacket(parsing: bytes)
        #expect(AudioLevelIndication(packet: packet, id: 1) == AudioLevelIndication(voiceActivity: true, decibels: -40))
        #expect(AudioLevelIndication(packet: packet, id: 2) == nil)
    }
}
